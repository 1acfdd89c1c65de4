import { isLoopback } from './server-options.js';

const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** True for an address that listens on every interface (`0.0.0.0`, `::`). */
export const isWildcard = (host: string): boolean => WILDCARD.has(host.trim().toLowerCase());

/** `name` and `port` of a `Host` header (`[::1]:8000`, `localhost:8000`, `example.com`); port 80 when absent. */
export function parseHostHeader(header: string): { name: string; port: number } | undefined {
  const text = header.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match?.[1]) return undefined;
  const name = match[1].replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return { name, port: match[2] === undefined ? 80 : Number(match[2]) };
}

/**
 * Which `Host` headers the server answers: the address it is bound to and, on a loopback address, the
 * other loopback names (`localhost`, `127.0.0.1`, `[::1]`), each with the bound port; a wildcard bind
 * answers the loopback names too. `--allowed-host NAME` (any port) or `NAME:PORT` adds more. Anything
 * else is another site's name pointing at us (DNS rebinding) or a misrouted request, and is refused.
 *
 * @example
 * const allowed = hostAllowList('127.0.0.1', 8000, []);
 * allowed('localhost:8000'); // true
 * allowed('evil.example:8000'); // false
 */
export function hostAllowList(
  bindHost: string,
  port: () => number,
  extra: readonly string[],
): (header: string | undefined) => boolean {
  const bound = bindHost
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  const implicit = new Set(
    isLoopback(bound) || isWildcard(bound)
      ? [...LOOPBACK_NAMES, ...(isWildcard(bound) ? [] : [bound])]
      : [bound],
  );
  const named = extra.map((entry) => {
    const parsed = parseHostHeader(entry);
    return {
      name: parsed?.name ?? entry.toLowerCase(),
      port: /:\d+$/.test(entry) ? parsed?.port : undefined,
    };
  });
  return (header) => {
    if (header === undefined) return false;
    const parsed = parseHostHeader(header);
    if (!parsed) return false;
    if (implicit.has(parsed.name) && parsed.port === port()) return true;
    return named.some((n) => n.name === parsed.name && (n.port === undefined || n.port === parsed.port));
  };
}
