/**
 * Reads a run's SSE stream (`GET /pipelines/{id}/events`) until its `done` message: each event goes to
 * `onEvent(event, arrivedAt, connectedAt)` (epoch ms; events that happened before `connectedAt` were
 * replayed, not delivered live). Resolves with the run's final status.
 */
export async function subscribeEvents(url, onEvent) {
  const response = await fetch(url);
  const connectedAt = Date.now();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return undefined;
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop();
    for (const block of blocks) {
      const line = block.split('\n').find((l) => l.startsWith('data: '));
      if (!line) continue;
      const event = JSON.parse(line.slice(6));
      if (event.kind === 'done') {
        reader.cancel().catch(() => {});
        return event.status;
      }
      onEvent(event, Date.now(), connectedAt);
    }
  }
}
