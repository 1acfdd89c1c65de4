/**
 * A load balancer without stickiness, started in the test: each request goes to the server `route`
 * picks for it, as it is (method, path, headers with the balancer's `Host`, body), and the answer comes
 * back as it is. It counts which server answered what, so a test can say where a sign-in finished.
 */
import { createServer, request as forward, type IncomingMessage } from 'node:http';
import { onTestFinished } from 'vitest';

/** The server a request goes to: its base URL (`http://127.0.0.1:PORT`). */
export type Route = (request: IncomingMessage) => string;

export async function loadBalancer(route: Route) {
  const answered: { path: string; by: string }[] = [];
  const http = createServer((incoming, outgoing) => {
    const target = new URL(route(incoming));
    answered.push({ path: new URL(incoming.url ?? '/', target).pathname, by: target.origin });
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => outgoing.writeHead(502).end(error.message));
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const address = http.address();
  const host = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url: `http://${host}`,
    /** The `--allowed-host` each server behind it needs: browsers ask for the balancer's name. */
    host,
    answered,
  };
}
