import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A host-side HTTP(S) proxy that lets a sandbox reach only the hosts its pipeline named. */
export interface EgressProxy {
  /** `host:port` of every connection refused, in order (what the user's note names). */
  readonly denials: readonly string[];
  close(): Promise<void>;
}

/** `github.com` allows itself; `*.github.com` its subdomains. Case-insensitive. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((entry) =>
    entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry.toLowerCase(),
  );
}

const refusal = (target: string): string =>
  `sandbox: ${target} is not in sandbox_egress; name its host in sandbox_egress="…" (graph or node) to allow it\n`;

function splitTarget(target: string, defaultPort: number): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(target);
  return { host: match?.[1] ?? target, port: Number(match?.[2] ?? defaultPort) };
}

function onConnect(allowed: readonly string[], denials: string[]) {
  return (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    const { host, port } = splitTarget(target, 443);
    client.on('error', () => undefined);
    if (!hostAllowed(host, allowed)) {
      denials.push(`${host}:${port}`);
      const body = refusal(`${host}:${port}`);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    const upstream = connect(port, host.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  };
}

function onRequest(allowed: readonly string[], denials: string[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('sandbox: the egress proxy takes absolute URLs only\n');
      return;
    }
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (url.protocol !== 'http:' || !hostAllowed(url.hostname, allowed)) {
      denials.push(`${url.hostname}:${port}`);
      res.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(`${url.hostname}:${port}`));
      return;
    }
    const upstream = httpRequest(
      {
        host: url.hostname,
        port,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.headersSent || res.writeHead(502).end());
    req.pipe(upstream);
  };
}

/**
 * Listens on `socketPath` (a unix socket, bound into the sandbox and reached there through the bridge
 * on 127.0.0.1) for CONNECT tunnels and plain-HTTP requests, and lets through only those to `allowed`
 * hosts; every other is answered 403 with a line saying how to allow it, and remembered in `denials`.
 */
export async function startEgressProxy(socketPath: string, allowed: readonly string[]): Promise<EgressProxy> {
  const denials: string[] = [];
  const server = createServer(onRequest(allowed, denials));
  server.on('connect', onConnect(allowed, denials));
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    denials,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
