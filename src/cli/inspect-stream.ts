import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { InspectionEvent } from 'xstate';
import { AttractorError } from '../shared/errors.js';
import { bridgePage } from './inspect-bridge-page.js';
import { hostAllowed, type InspectAccess, originAllowed } from './inspect-origin.js';
import { InspectionLog } from './inspection-log.js';
import { createStatelyConverter } from './stately-inspection-event.js';

export interface InspectStreamOptions {
  /** Serve the events over WebSocket on 127.0.0.1:port (`--inspect [PORT]`). */
  port?: number;
  /** Append every event to this file as JSON Lines (`--inspect-log FILE`). */
  logFile?: string;
  /** `--inspect-origin`: web origins besides the server's own that may read the stream. */
  origins?: readonly string[];
}

export interface InspectStream {
  inspect(event: InspectionEvent): void;
  /** Where a browser attaches (when serving). */
  url?: string;
  /** Flush what is pending to connected clients and the log, then stop listening: the run can exit. */
  close(): Promise<void>;
}

export const DEFAULT_INSPECT_PORT = 8080;
/** A client replayed the run from disk gets it in steps: at most this much unsent per socket. */
const REPLAY_HIGH_WATER = 4 * 1024 * 1024;
/** How long `close()` lets a late client's replay finish before ending its connection. */
const REPLAY_GRACE_MS = 5000;

interface Client {
  socket: WebSocket;
  /** Messages sent while its replay from disk ran: sent right after it, in order. */
  queued: string[];
  live: boolean;
  replayed: Promise<void>;
}

/**
 * The live actor system's inspection events in the message format of `@statelyai/inspect`
 * (stately-inspection-event.ts), written as JSON Lines and served over WebSocket (`ws`, loaded only
 * when asked) on loopback only, to the server's own pages and non-browser clients (inspect-origin.ts).
 * A client that connects late is first replayed the whole run from the log on disk, then follows live:
 * it sees every actor registered before any of its events, however long the run. We are the server,
 * so no client of ours retries a connection in the background, and `close()` ends every connection:
 * the run always exits. (The package's own WebSocket client retries for ever when nothing listens,
 * and converts events later, on idle callbacks — so it is not used.)
 */
export async function openInspectStream(options: InspectStreamOptions): Promise<InspectStream> {
  const serving = options.port !== undefined;
  let server: Server | undefined;
  let sockets: WebSocketServer | undefined;
  const clients = new Set<Client>();
  let log: InspectionLog | undefined;
  if (serving) {
    const { WebSocketServer } = await loadWebSocket();
    const wss = new WebSocketServer({ noServer: true });
    const http = createServer();
    // Set once listening: the port to check Host and Origin against, and the log to replay from.
    let ready: { access: InspectAccess; log: InspectionLog } | undefined;
    http.on('request', (req, res) => {
      if (!ready || !hostAllowed(req.headers.host, ready.access)) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden: unknown Host\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(bridgePage());
    });
    http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const allowed =
        ready &&
        hostAllowed(req.headers.host, ready.access) &&
        originAllowed(req.headers.origin, ready.access);
      if (!ready || !allowed) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      const record = ready.log;
      wss.handleUpgrade(req, socket, head, (ws) => clients.add(connect(ws, record, clients)));
    });
    await listen(http, options.port ?? DEFAULT_INSPECT_PORT);
    log = InspectionLog.open(options.logFile);
    const address = http.address();
    const bound = typeof address === 'object' && address ? address.port : 0;
    ready = { access: { port: bound, origins: options.origins ?? [] }, log };
    server = http;
    sockets = wss;
  } else if (options.logFile) {
    log = InspectionLog.open(options.logFile);
  }
  const address = server?.address();
  const port = typeof address === 'object' && address ? address.port : undefined;
  const converter = createStatelyConverter((message) => {
    const line = JSON.stringify(message);
    log?.append(line);
    for (const client of clients) {
      if (!client.live) client.queued.push(line);
      else if (client.socket.readyState === client.socket.OPEN) client.socket.send(line);
    }
  });
  return {
    inspect: (event) => converter.convert(event),
    ...(port !== undefined ? { url: `http://127.0.0.1:${port}` } : {}),
    async close() {
      converter.flush();
      if (sockets) {
        // A late client still being replayed gets the rest first (within a grace period).
        const grace = new Promise<void>((resolve) => setTimeout(resolve, REPLAY_GRACE_MS).unref());
        await Promise.race([Promise.allSettled([...clients].map((c) => c.replayed)), grace]);
        // Let queued frames go out, then end every connection so nothing holds the process open.
        await Promise.all([...clients].map((client) => closeClient(client.socket)));
        sockets.close();
      }
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
      log?.close();
    },
  };
}

/** A new client: replayed everything logged so far, then live. */
function connect(socket: WebSocket, log: InspectionLog, clients: Set<Client>): Client {
  const client: Client = { socket, queued: [], live: false, replayed: Promise.resolve() };
  socket.on('close', () => clients.delete(client));
  socket.on('error', () => clients.delete(client));
  const open = () => socket.readyState === socket.OPEN;
  const send = async (line: string) => {
    if (!open()) return;
    socket.send(line);
    while (open() && socket.bufferedAmount > REPLAY_HIGH_WATER) await new Promise((r) => setTimeout(r, 10));
  };
  client.replayed = log
    .replay(log.size, send)
    .then(() => {
      for (const line of client.queued.splice(0)) if (open()) socket.send(line);
      client.live = true;
    })
    .catch(() => {
      // The log could not be read back: say so rather than stream events for actors never announced.
      if (open()) socket.close(1011, 'the inspection log could not be replayed');
    });
  return client;
}

function closeClient(client: WebSocket): Promise<void> {
  return new Promise<void>((resolve) => {
    if (client.readyState !== client.OPEN) return resolve();
    client.once('close', () => resolve());
    client.close(1000, 'run finished');
    setTimeout(() => {
      client.terminate();
      resolve();
    }, 1000).unref();
  });
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
          error.code === 'EADDRINUSE'
            ? `--inspect: port ${port} on 127.0.0.1 is in use; pick another with --inspect <port> (--inspect 0 takes a free one).`
            : `--inspect cannot listen on 127.0.0.1:${port}: ${error.message}.`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
}
