// Agent `shell` tool on a command printing 100 MB: the output is streamed (TOOL_CALL_OUTPUT_DELTA), kept in
// memory only as a bounded head + tail, and truncated for the model with the limits. Measures the time
// from the command's last output to the truncated result, and the process's peak RSS.
// Targets: truncated within 1 s of the output's end; peak RSS < 200 MB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalExecutionEnvironment } from '../dist/agent/environment/local-execution-environment.js';
import { runAgentTool } from '../dist/agent/tools/run-agent-tool.js';
import { shellTool } from '../dist/agent/tools/shell-tool.js';

const BYTES = 100_000_000;
const LINE = 'lorem ipsum dolor sit amet, consectetur adipiscing elit 0123456789';
// Stage 2 (lines) runs after stage 1 (characters) and, on many short lines, cuts away the middle where the
// character marker sat: then the lines marker is what the model sees (as in the algorithm).
const marked = (text) =>
  text.includes('[WARNING: Tool output was truncated.') || /\[\.\.\. \d+ lines omitted \.\.\.\]/.test(text);
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

const dir = mkdtempSync(join(tmpdir(), 'attractor-bench-shell-'));
try {
  const env = new LocalExecutionEnvironment({ workingDir: dir });
  const cases = [
    ['lines', `yes '${LINE}' | head -c ${BYTES}`],
    ['one line', `head -c ${BYTES} /dev/zero | tr '\\0' x`],
  ];
  for (const [label, command] of cases) {
    const rssBefore = process.memoryUsage().rss;
    let streamed = 0;
    let lastChunkAt = 0;
    const started = performance.now();
    const result = await runAgentTool(
      shellTool,
      { command, timeout_ms: 120_000 },
      {
        env,
        signal: new AbortController().signal,
        callId: 'bench',
        onOutputDelta: (chunk) => {
          streamed += chunk.length;
          lastChunkAt = performance.now();
        },
      },
    );
    const done = performance.now();
    const afterEnd = done - lastChunkAt;
    const peak = process.resourceUsage().maxRSS * 1024;
    console.log(
      `${label}: ${mb(streamed)} MB streamed in ${((done - started) / 1000).toFixed(2)} s ` +
        `(${(streamed / 1e6 / ((done - started) / 1000)).toFixed(0)} MB/s); ` +
        `full output kept ${mb(result.output.length)} MB, model sees ${result.truncated.length} chars` +
        `${marked(result.truncated) ? ' with a truncation marker' : ' WITHOUT a truncation marker'}`,
    );
    console.log(
      `${label}: truncated ${afterEnd.toFixed(0)} ms after the last output (target <= 1000 ms) ${afterEnd <= 1000 ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `${label}: peak RSS ${mb(peak)} MB (RSS before ${mb(rssBefore)} MB; target < 200 MB) ${peak < 200 * 1024 * 1024 ? 'OK' : 'MISSED'}`,
    );
    if (streamed !== BYTES)
      console.log(`${label}: streamed ${streamed} characters, expected ${BYTES} MISSED`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
