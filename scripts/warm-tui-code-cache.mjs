// Runs the TUI bundle the build just made once, off screen, so that V8's code cache for it
// (src/cli/tui-code-cache.ts) exists before the first real `attractor run` on a terminal: without it,
// that first run compiles the ~400 kB bundle and what its first frame calls (D21.1). The cache is
// written as this process is about to exit, by the code that writes it at run time (cli/load-tui.ts),
// so it holds what a first frame, streamed markdown, a tool call, a finished node and the closing
// summary compiled. `node scripts/warm-tui-code-cache.mjs [DIST]` (default: this project's dist/).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { offscreenTerminal } from './offscreen-terminal.mjs';

const dist = path.resolve(
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'),
);
const { loadTui, tuiLoadInfo } = await import(pathToFileURL(path.join(dist, 'cli', 'load-tui.js')).href);
const { startRunTui } = await loadTui();
const loaded = tuiLoadInfo();
// Running from modules (no bundle), or a cache already there: nothing to make.
if (loaded?.from !== 'bundle' || loaded.cacheUsed) process.exit(0);

const { stdout: screen, stdin: keyboard } = offscreenTerminal({ columns: 100, rows: 30 });
const tui = startRunTui({
  source:
    'digraph warm { start [shape=Mdiamond]; plan [label="Plan"]; check [shape=parallelogram]; exit [shape=Msquare]; start -> plan -> check -> exit }',
  env: {},
  stdout: screen,
  stdin: keyboard,
});
const at = () => new Date().toISOString();
const event = (kind, node, data = {}) =>
  tui.onEvent({ kind, ...(node ? { node_id: node } : {}), data, timestamp: at() });
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

event('pipeline.start', undefined, { name: 'warm', run_id: 'warm' });
tui.mount({ runDir: dist, pause() {}, cancel() {} });
event('node.start', 'start', { attempt: 1 });
event('node.complete', 'start', { status: 'success', duration_ms: 1 });
event('node.start', 'plan', { attempt: 1 });
for (const delta of [
  '# Plan\n',
  'Some **bold** and `code` ',
  'text.\n',
  '- a bullet\n',
  '```ts\nconst x = 1;\n```\n',
]) {
  event('agent.assistant_text_delta', 'plan', { delta });
}
event('agent.tool_call_start', 'plan', {
  tool_name: 'write_file',
  call_id: 'c1',
  arguments: { path: 'a.ts', content: 'x' },
});
event('agent.tool_call_end', 'plan', { call_id: 'c1', output: 'ok' });
await pause(120);
event('node.complete', 'plan', { status: 'success', duration_ms: 5 });
event('node.start', 'check', { attempt: 1 });
await pause(120);
event('node.complete', 'check', { status: 'success', duration_ms: 2 });
event('pipeline.finalize', undefined, { status: 'completed', quality: 'clean' });
await tui.close();
