import { InvalidArgumentError } from 'commander';

/**
 * Who may read the `--inspect` stream (docs/decisions/0018-inspector-protocol-spoken-directly.md). The stream carries the run's context,
 * prompts and responses, so a web page must not read it just because the browser it runs in can
 * reach 127.0.0.1. Allowed: a request whose `Host` names the server itself (which defeats DNS
 * rebinding), with no `Origin` (not a browser: a script, `@statelyai/inspect`'s own receivers in
 * Node) or the server's own origin (its bridge page), or an origin named with `--inspect-origin`.
 */
export interface InspectAccess {
  port: number;
  /** `--inspect-origin`: more origins allowed, e.g. `https://stately.ai`. */
  origins: readonly string[];
}

const ownHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

export function hostAllowed(host: string | undefined, access: InspectAccess): boolean {
  return host !== undefined && ownHosts(access.port).includes(host.toLowerCase());
}

export function originAllowed(origin: string | undefined, access: InspectAccess): boolean {
  if (origin === undefined) return true;
  const own = ownHosts(access.port).map((host) => `http://${host}`);
  return [...own, ...access.origins].includes(origin.toLowerCase().replace(/\/$/, ''));
}

/** An `--inspect-origin` value as browsers send it: scheme, host and port, nothing after. */
export function parseInspectOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.pathname !== '/' || url.search || url.hash) return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Commander parser for repeatable `--inspect-origin ORIGIN`: collects; a malformed origin exits 2. */
export function parseInspectOriginFlag(value: string, previous: string[] = []): string[] {
  const origin = parseInspectOrigin(value);
  if (!origin)
    throw new InvalidArgumentError('Expected an origin such as https://stately.ai (scheme, host, port).');
  return [...previous, origin];
}
