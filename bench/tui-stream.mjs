// TUI streaming cost: 20,000 assistant text deltas at 2,000/s through the TUI the CLI ships (from the
// CLI's bundle dist/bin/attractor.js, loaded as the CLI loads it, with its React production build)
// into a null terminal stream. Reports CPU time per second of streaming (target < 50% of one core,
// docs/decisions/0023-tui-opens-only-on-a-terminal.md) and the frames per second that reached
// the terminal (target ≤ 30); with `node --expose-gc`, also the heap the stream left behind after
// garbage collection (what Ink's text caches keep, with the text itself).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { offscreenTerminal } from '../scripts/offscreen-terminal.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(path.join(root, 'dist', 'bin', 'attractor.js'))) {
  console.error('tui-stream: dist/ is missing; run `npm run build`');
  process.exit(1);
}
const { loadTui } = await import(path.join(root, 'dist/bin/attractor.js'));
const { startRunTui } = await loadTui();

const TOTAL = Number(process.env.TUI_DELTAS ?? 20_000);
const RATE = 2_000;
const TICK_MS = 5;
// Ink brackets every frame it writes in a synchronized update (begin: CSI ? 2026 h).
const FRAME_START = '\u001b[?2026h';

let bytes = 0;
let writes = 0;
let frames = 0;
let last = '';
const { stdout: out, stdin: keyboard } = offscreenTerminal({
  columns: 100,
  rows: 40,
  onWrite(chunk) {
    const text = String(chunk);
    bytes += chunk.length;
    writes += 1;
    if (text.startsWith(FRAME_START)) frames += 1;
    if (process.env.TUI_DEBUG) last = text;
  },
});
const tui = startRunTui({
  source: 'digraph s { start [shape=Mdiamond]; a; b; c; exit [shape=Msquare]; start -> a -> b -> c -> exit }',
  env: {},
  stdout: out,
  stdin: keyboard,
});
const now = () => new Date().toISOString();
tui.onEvent({ kind: 'pipeline.start', data: { name: 's', run_id: 'bench' }, timestamp: now() });
tui.onEvent({ kind: 'node.start', node_id: 'a', data: { attempt: 1 }, timestamp: now() });
tui.mount({ runDir: root, pause() {}, cancel() {} });
await new Promise((r) => setTimeout(r, 200));
globalThis.gc?.();
const heap0 = process.memoryUsage().heapUsed;

// Ink takes over `console` while mounted (patchConsole), so results are written to stdout directly.
const print = (line) => process.stdout.write(`${line}\n`);
// Every line is different (it ends with the delta's number), so no frame can reuse the lines of the last
// one that scrolled into its place: at 2,000 deltas a second, about 14 new lines arrive per frame.
const words = ['the ', 'agent ', 'writes ', '`code` ', 'and ', '**text** ', 'here', 'More '];
const delta = (n) => (n % words.length === 6 ? `here ${n}.\n` : words[n % words.length]);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const frames0 = frames;
const writes0 = writes;
let sent = 0;
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const due = Math.min(TOTAL, Math.floor(((performance.now() - t0) / 1000) * RATE));
    for (; sent < due; sent++) {
      tui.onEvent({
        kind: 'agent.assistant_text_delta',
        node_id: 'a',
        data: { delta: delta(sent) },
        timestamp: '',
      });
    }
    if (sent >= TOTAL) {
      clearInterval(timer);
      resolve();
    }
  }, TICK_MS);
});
await new Promise((r) => setTimeout(r, 100));
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const cpuShare = (cpu.user + cpu.system) / 1e6 / seconds;
const fps = (frames - frames0) / seconds;
if (process.env.TUI_DEBUG) print(writes, last.slice(-600));
print(
  `${TOTAL} deltas in ${seconds.toFixed(2)} s (${Math.round(TOTAL / seconds)}/s), ${(bytes / 1024).toFixed(0)} KB written`,
);
print(`CPU: ${(cpuShare * 100).toFixed(1)}% of one core (target < 50%) ${cpuShare < 0.5 ? 'OK' : 'MISSED'}`);
print(
  `frames: ${fps.toFixed(1)}/s (target ≤ 30) ${fps <= 30.5 ? 'OK' : 'MISSED'} (${((writes - writes0) / seconds).toFixed(0)} writes/s)`,
);
if (globalThis.gc) {
  globalThis.gc();
  print(`heap retained after GC: ${((process.memoryUsage().heapUsed - heap0) / 2 ** 20).toFixed(1)} MB`);
}
process.exit(0);
