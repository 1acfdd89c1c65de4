/** The port the bridge listens on inside the sandbox's own network namespace (nothing else is there). */
export const BRIDGE_PORT = 3128;

/**
 * The program `node -e` runs first inside a sandbox with egress (argv: socket, port, command…): it
 * listens on 127.0.0.1:port and joins each connection to the proxy's unix socket, then runs the command
 * with the same stdio and exits with its status. Plain JavaScript, since it runs as a string.
 */
export const BRIDGE_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, file, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream).pipe(client);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(file, args, { stdio: 'inherit' });
  child.on('error', (error) => { process.stderr.write(error.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (require('node:os').constants.signals[signal] ?? 0)));
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => process.exit(128 + 15));
`;

/** What a sandboxed command with egress sees: every HTTP client that honours the usual variables uses the bridge. */
export function proxyEnvironment(port: number): Record<string, string> {
  const proxy = `http://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    // Servers a command starts inside the sandbox are reached directly; names go through the proxy.
    NO_PROXY: '127.0.0.1,::1',
    no_proxy: '127.0.0.1,::1',
  };
}
