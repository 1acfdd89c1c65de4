// TUI streaming cost: 20,000 assistant text deltas at 2,000/s through the real App (dist/) into a
// null terminal stream. Reports CPU time per second of streaming (target < 30% of one core) and the
// frames per second Ink rendered to the terminal (onRender) (target ≤ 30). React runs its production build,
// as in the CLI (which sets NODE_ENV=production before loading Ink).
process.env.NODE_ENV ??= 'production';

import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(path.join(root, 'dist', 'tui', 'App.js'))) {
  console.error('tui-stream: dist/ is missing; run `npm run build`');
  process.exit(1);
}
const { render } = await import('ink');
const { createElement } = await import('react');
const { App } = await import(path.join(root, 'dist/tui/App.js'));
const { createRunStore } = await import(path.join(root, 'dist/tui/run-store.js'));
const { loadPipeline } = await import(path.join(root, 'dist/compiler/compile.js'));

const TOTAL = Number(process.env.TUI_DELTAS ?? 20_000);
const RATE = 2_000;
const TICK_MS = 5;
const graph = loadPipeline(
  'digraph s { start [shape=Mdiamond]; a; b; c; exit [shape=Msquare]; start -> a -> b -> c -> exit }',
).graph;
const store = createRunStore(graph);
const now = () => new Date().toISOString();
store.push({ kind: 'pipeline.start', data: { name: 's', run_id: 'bench' }, timestamp: now() });
store.push({ kind: 'node.start', node_id: 'a', data: { attempt: 1 }, timestamp: now() });

let bytes = 0;
let writes = 0;
let last = '';
const out = new Writable({
  write(chunk, _enc, done) {
    bytes += chunk.length;
    writes += 1;
    if (process.env.TUI_DEBUG) last = String(chunk);
    done();
  },
});
Object.assign(out, { isTTY: true, columns: 100, rows: 40 });
// A keyboard that never types: Ink needs a TTY stdin (raw mode) for the app's key handling.
const keyboard = Object.assign(new Readable({ read() {} }), {
  isTTY: true,
  setRawMode() {},
  ref() {},
  unref() {},
});
let frames = 0;
const instance = render(createElement(App, { store, controls: { pause() {}, cancel() {} } }), {
  stdout: out,
  stdin: keyboard,
  exitOnCtrlC: false,
  patchConsole: false,
  onRender: () => {
    frames += 1;
  },
});
await new Promise((r) => setTimeout(r, 200));

const words = ['the ', 'agent ', 'writes ', '`code` ', 'and ', '**text** ', 'here.\n', 'More '];
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const frames0 = frames;
const writes0 = writes;
let sent = 0;
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const due = Math.min(TOTAL, Math.floor(((performance.now() - t0) / 1000) * RATE));
    for (; sent < due; sent++) {
      store.push({
        kind: 'agent.assistant_text_delta',
        node_id: 'a',
        data: { delta: words[sent % words.length] },
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
instance.unmount();
if (process.env.TUI_DEBUG) console.log(writes, last.slice(-600));
console.log(
  `${TOTAL} deltas in ${seconds.toFixed(2)} s (${Math.round(TOTAL / seconds)}/s), ${(bytes / 1024).toFixed(0)} KB written`,
);
console.log(
  `CPU: ${(cpuShare * 100).toFixed(1)}% of one core (target < 30%) ${cpuShare < 0.3 ? 'OK' : 'MISSED'}`,
);
console.log(
  `frames: ${fps.toFixed(1)}/s (target ≤ 30) ${fps <= 30.5 ? 'OK' : 'MISSED'} (${((writes - writes0) / seconds).toFixed(0)} writes/s)`,
);
process.exit(0);
