import type { RunEvents } from './run-service.js';

export interface SseOptions {
  /** Events after this id are sent first (from `Last-Event-ID`). */
  afterId: number;
  heartbeatMs: number;
  /**
   * Bytes a subscriber may leave unread before it is dropped (it never slows the run). One message
   * larger than this is still sent to a subscriber that has read everything before it.
   */
  maxQueuedBytes: number;
  /** How long a dropped subscriber has to read what was queued for it before its connection is cut. */
  dropGraceMs: number;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** Cuts the client's connection (the HTTP socket); by default the body stream errors, which does the same. */
  disconnect?: () => void;
  /**
   * Asked at each heartbeat: whether the caller may still read this run (a role revoked, a token revoked
   * or expired, a session ended since the stream opened). False ends the stream; the client's reconnect
   * then meets the 401 or 403 that says why.
   */
  stillAllowed?: (() => Promise<boolean>) | undefined;
}

const encoder = new TextEncoder();

/**
 * One SSE subscriber: each event as `id:` + `data:` (the event's JSON), heartbeats as comments, and
 * the terminal `{"kind":"done","status":...}` message. A subscriber that lets more than
 * `maxQueuedBytes` pile up gets a last `stream.dropped` message (with the id to reconnect from) and the
 * stream closes; one that has not read its backlog `dropGraceMs` later is disconnected, so a client
 * that never reads holds at most `maxQueuedBytes` (and one message) of the server's memory, for a while
 * (decision 0001).
 */
export function sseResponse(hub: RunEvents, options: SseOptions): Response {
  let stop = (): void => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        let lastId = options.afterId;
        let graceTimer: NodeJS.Timeout | undefined;
        const queuedBytes = (): number => -(controller.desiredSize ?? 0);
        const close = (): void => {
          if (closed) return;
          closed = true;
          stop();
          try {
            controller.close();
          } catch {
            // already closed by the consumer
          }
        };
        const cut = (): void => {
          if (queuedBytes() <= 0) return;
          if (options.disconnect) options.disconnect();
          else controller.error(new Error('the SSE client did not read its backlog'));
        };
        const write = (text: string): boolean => {
          if (closed) return false;
          controller.enqueue(encoder.encode(text));
          return true;
        };
        const drop = (): false => {
          const data = {
            reason: 'the client did not keep up; reconnect with Last-Event-ID',
            last_event_id: lastId,
            max_queued_bytes: options.maxQueuedBytes,
          };
          write(
            `data: ${JSON.stringify({ kind: 'stream.dropped', data, timestamp: new Date().toISOString() })}\n\n`,
          );
          close();
          graceTimer = setTimeout(cut, options.dropGraceMs);
          graceTimer.unref();
          return false;
        };
        const beat = async (): Promise<void> => {
          write(': heartbeat\n\n');
          if (options.stillAllowed && !(await options.stillAllowed())) close();
        };
        const heartbeat = setInterval(() => void beat(), options.heartbeatMs);
        heartbeat.unref();
        const onAbort = (): void => {
          clearTimeout(graceTimer);
          close();
        };
        options.signal.addEventListener('abort', onAbort, { once: true });
        let unsubscribe = (): void => {};
        stop = () => {
          clearInterval(heartbeat);
          options.signal.removeEventListener('abort', onAbort);
          unsubscribe();
        };
        write(': connected\n\n');
        unsubscribe = hub.subscribe(options.afterId, {
          event(id, event) {
            if (closed) return false;
            const message = encoder.encode(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
            const queued = queuedBytes();
            if (queued > 0 && queued + message.byteLength > options.maxQueuedBytes) return drop();
            lastId = id;
            controller.enqueue(message);
            return true;
          },
          done(status) {
            write(`data: ${JSON.stringify({ kind: 'done', status })}\n\n`);
            queueMicrotask(close);
          },
        });
      },
      cancel() {
        stop();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
  );
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
