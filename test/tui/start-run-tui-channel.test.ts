import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { writeAnswerFile } from '../../src/actors/interviewers/answer-channel.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { resumePipeline } from '../../src/run/engine.js';
import { startRunTui } from '../../src/tui/start-run-tui.js';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { GATED_PIPELINE } from '../helpers/gated-pipeline.js';

const GATE = GATED_PIPELINE;

const dirs: string[] = [];
beforeAll(() => ensureDist(), 180_000);
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A real run killed while its gate waits (no TUI, stdin left open): its question file stays. */
async function killedAtGate(): Promise<{ runDir: string; questionId: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-tui-channel-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'p.dot'), GATE);
  writeFileSync(path.join(dir, 's.json'), '{}');
  const child = spawn(
    process.execPath,
    [BIN, 'run', 'p.dot', '--no-tui', '--scenario', 's.json', '--logs-dir', 'runs'],
    { cwd: dir, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const runDir = path.join(dir, 'runs');
  const questions = path.join(runDir, 'questions');
  // Published: the question's own file, not the temporary file it is written through.
  const published = (): string | undefined =>
    existsSync(questions) ? readdirSync(questions).find((f) => /^[^.].*\.json$/.test(f)) : undefined;
  const until = Date.now() + 20_000;
  while (published() === undefined) {
    if (Date.now() > until) throw new Error('the gate never asked');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  await exited;
  return { runDir, questionId: published()!.replace(/\.json$/, '') };
}

test('a run resumed with the TUI publishes its gate before the TUI is mounted: an answer file answers it', async () => {
  const { runDir, questionId } = await killedAtGate();
  writeAnswerFile(runDir, {
    id: questionId,
    choice: 'A',
    answered_by: 'test',
    answered_at: new Date().toISOString(),
  });
  const tui = startRunTui({
    source: readFileSync(path.join(runDir, 'pipeline.dot'), 'utf8'),
    env: { NO_COLOR: '1' },
    replayFrom: runDir,
  });
  // Not mounted: nothing is rendered, the gate is asked as the run resumes.
  const run = resumePipeline({
    from: runDir,
    interviewer: tui.interviewer,
    onEvent: tui.onEvent,
    backend: createSimulatedBackend(),
    durable: false,
  });
  const result = await run.result;
  expect(result.status).toBe('completed');
  const events = readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; node_id?: string; data: Record<string, unknown> });
  expect(events.filter((e) => e.kind === 'interview.complete').map((e) => e.data['key'])).toEqual(['A']);
  expect(readdirSync(path.join(runDir, 'questions'))).toEqual([]);
}, 60_000);
