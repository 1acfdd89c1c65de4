import { createWriteStream, type WriteStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { WebSocketServer } from 'ws';
import type { InspectionEvent } from 'xstate';
import { AttractorError } from '../shared/errors.js';
import { toStatelyInspectionEvent } from './stately-inspection-event.js';

export interface InspectStreamOptions {
  /** Serve the events over WebSocket on 127.0.0.1:port (`--inspect [PORT]`). */
  port?: number;
  /** Append every event to this file as JSON Lines (`--inspect-log FILE`). */
  logFile?: string;
}

export interface InspectStream {
  inspect(event: InspectionEvent): void;
  /** Where a browser attaches (when serving). */
  url?: string;
  /** Flush what is pending to connected clients and the log, then stop listening: the run can exit. */
  close(): Promise<void>;
}

export const DEFAULT_INSPECT_PORT = 8080;
/** A client that connects late still sees the run from its start, up to this many events. */
const REPLAY_LIMIT = 10_000;

/**
 * The live actor system's inspection events in the message format of `@statelyai/inspect`, served
 * over WebSocket (`ws`, loaded only when asked) on loopback only, and written as JSON Lines. We are
 * the server, so no client of ours retries a connection in the background, and `close()` ends every
 * connection: the run always exits. (The package's own WebSocket client retries for ever when nothing
 * listens, and converts events later, on idle callbacks — so it is not used.)
 */
export async function openInspectStream(options: InspectStreamOptions): Promise<InspectStream> {
  const replay: string[] = [];
  let log: WriteStream | undefined;
  let server: Server | undefined;
  let sockets: WebSocketServer | undefined;
  if (options.logFile) log = createWriteStream(options.logFile, { flags: 'w' });
  if (options.port !== undefined) {
    const { WebSocketServer } = await loadWebSocket();
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(bridgePage());
    });
    sockets = new WebSocketServer({ server });
    sockets.on('connection', (socket) => {
      for (const line of replay) socket.send(line);
    });
    await listen(server, options.port);
  }
  const send = (event: InspectionEvent): void => {
    const converted = toStatelyInspectionEvent(event);
    if (!converted) return;
    let line: string;
    try {
      line = JSON.stringify(converted);
    } catch {
      return; // a context that cannot be serialised is not worth stopping the run for
    }
    log?.write(`${line}\n`);
    if (!sockets) return;
    if (replay.length < REPLAY_LIMIT) replay.push(line);
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(line);
  };
  const address = server?.address();
  const port = typeof address === 'object' && address ? address.port : undefined;
  return {
    inspect: send,
    ...(port !== undefined ? { url: `http://127.0.0.1:${port}` } : {}),
    async close() {
      if (sockets) {
        // Let queued frames go out, then end every connection so nothing holds the process open.
        await Promise.all(
          [...sockets.clients].map(
            (client) =>
              new Promise<void>((resolve) => {
                if (client.readyState !== client.OPEN) return resolve();
                client.once('close', () => resolve());
                client.close(1000, 'run finished');
                setTimeout(() => {
                  client.terminate();
                  resolve();
                }, 1000).unref();
              }),
          ),
        );
        sockets.close();
      }
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
      if (log) await new Promise<void>((resolve) => log.end(() => resolve()));
    },
  };
}

async function loadWebSocket() {
  try {
    return await import('ws');
  } catch (error) {
    throw new AttractorError(
      'INSPECT_UNAVAILABLE',
      '--inspect needs the optional package ws: install it with `npm install ws`.',
      { cause: error },
    );
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new AttractorError(
          'INSPECT_PORT',
          `--inspect cannot listen on 127.0.0.1:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}.`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

/** The page a browser opens: the Stately inspector in a frame, fed from our WebSocket. */
function bridgePage(): string {
  return `<!doctype html>
<meta charset="utf-8"><title>Attractor run — Stately inspector</title>
<style>html,body,iframe{margin:0;width:100%;height:100%;border:0}</style>
<iframe id="viewer" src="https://stately.ai/inspect"></iframe>
<script>
  const viewer = document.getElementById('viewer');
  const pending = [];
  let ready = false;
  addEventListener('message', (m) => {
    if (m.data && m.data.type === '@statelyai.connected') {
      ready = true;
      for (const e of pending.splice(0)) viewer.contentWindow.postMessage(e, '*');
    }
  });
  const socket = new WebSocket('ws://' + location.host);
  socket.onmessage = (m) => {
    const e = JSON.parse(m.data);
    if (ready) viewer.contentWindow.postMessage(e, '*');
    else pending.push(e);
  };
</script>
`;
}
