import type { RunEvents } from './run-service.js';

export interface SseOptions {
  /** Events after this id are sent first (from `Last-Event-ID`). */
  afterId: number;
  heartbeatMs: number;
  /** Messages a subscriber may have queued before it is dropped (it never slows the run). */
  maxQueued: number;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

const encoder = new TextEncoder();

/**
 * One SSE subscriber: each event as `id:` + `data:` (the event's JSON), heartbeats as comments, and
 * the terminal `{"kind":"done","status":...}` message. A subscriber that lets more than `maxQueued`
 * messages pile up gets a last `stream.dropped` message (with the id to reconnect from) and is closed.
 */
export function sseResponse(hub: RunEvents, options: SseOptions): Response {
  let stop = (): void => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        let lastId = options.afterId;
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
        const write = (text: string): boolean => {
          if (closed) return false;
          controller.enqueue(encoder.encode(text));
          return true;
        };
        const heartbeat = setInterval(() => write(': heartbeat\n\n'), options.heartbeatMs);
        heartbeat.unref();
        const onAbort = (): void => close();
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
            if ((controller.desiredSize ?? 0) <= -options.maxQueued) {
              const data = {
                reason: 'the client did not keep up; reconnect with Last-Event-ID',
                last_event_id: lastId,
              };
              write(
                `data: ${JSON.stringify({ kind: 'stream.dropped', data, timestamp: new Date().toISOString() })}\n\n`,
              );
              queueMicrotask(close);
              return false;
            }
            lastId = id;
            return write(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
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
    new CountQueuingStrategy({ highWaterMark: 0 }),
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
