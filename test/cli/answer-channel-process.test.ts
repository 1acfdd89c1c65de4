import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { GATED_PIPELINE } from '../helpers/gated-pipeline.js';
import { runCli } from './run-cli.js';

/** Who the terminal, the TUI and `attach` say answered: the OS user (decision 0410). */
const ME = userInfo().username;

const GATE = GATED_PIPELINE;

const dirs: string[] = [];
const children: ChildProcess[] = [];
beforeAll(() => ensureDist(), 180_000);
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  runDir: string;
  exited: Promise<number | null>;
  stderr: () => string;
  stdout: () => string;
}

/** `attractor run --no-tui` on pipes (not a TTY), stdin left open: nobody types anything. */
function startRun(extra: string[] = []): Started {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-channel-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'p.dot'), GATE);
  writeFileSync(path.join(dir, 's.json'), '{}');
  const child = spawn(
    process.execPath,
    [BIN, 'run', 'p.dot', '--no-tui', '--scenario', 's.json', '--logs-dir', 'runs', ...extra],
    { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, CI: '' } },
  );
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  let stdout = '';
  child.stdout?.on('data', (d) => {
    stdout += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, runDir: path.join(dir, 'runs'), exited, stderr: () => stderr, stdout: () => stdout };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const questionFiles = (runDir: string): string[] => {
  const dir = path.join(runDir, 'questions');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
};

/** `attractor attach --answer` as its own process: the answer crosses from one process to another. */
function attachProcess(runDir: string, answer: string) {
  return spawnSync(process.execPath, [BIN, 'attach', runDir, '--answer', answer], {
    encoding: 'utf8',
    timeout: 20_000,
  });
}

/**
 * The same command run in this process (the run is still another process, so the answer still crosses
 * processes through the run directory); the first test above proves the real binary's exit code and output.
 */
async function attach(runDir: string, answer: string, ...more: string[]) {
  const r = await runCli(['attach', runDir, ...more, '--answer', answer]);
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

function events(runDir: string): Array<{ kind: string; node_id?: string; data: Record<string, unknown> }> {
  return readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('the answer channel of a run without the TUI', () => {
  it('publishes the question; `attractor attach --answer` answers it; stdin is withdrawn and the run exits', async () => {
    const run = startRun();
    const [file] = await until('the question file', () => {
      const files = questionFiles(run.runDir);
      return files.length > 0 ? files : undefined;
    });
    const question = JSON.parse(readFileSync(path.join(run.runDir, 'questions', file!), 'utf8'));
    expect(question).toMatchObject({
      node_id: 'gate',
      question: { text: 'Ship it?', options: [{ key: 'A' }, { key: 'R' }] },
    });
    await until('the prompt on stderr', () => (run.stderr().includes('[?] Ship it?') ? true : undefined));

    const answered = attachProcess(run.runDir, 'R');
    expect(answered.stderr).toBe('');
    expect(answered.stdout).toMatch(/Answered gate \(question .+\): \[R\] Reject\n/);
    expect(answered.status).toBe(0);

    // stdin is still open: the process exits only if nothing keeps reading it.
    expect(await run.exited).toBe(0);
    expect(run.child.stdin?.writableEnded).toBe(false);
    expect(run.stderr()).toMatch(new RegExp(`\\[i\\] gate: answered by ${ME}: \\[R\\] Reject`));
    expect(questionFiles(run.runDir)).toEqual([]);
    const record = JSON.parse(readFileSync(path.join(run.runDir, 'answers', file!), 'utf8'));
    expect(record).toMatchObject({ choice: 'R', answered_by: ME });
    const complete = events(run.runDir).find((e) => e.kind === 'interview.complete');
    expect(complete?.data).toMatchObject({ key: 'R' });
    expect(events(run.runDir).some((e) => e.node_id === 'ship' && e.kind === 'node.start')).toBe(false);
  }, 60_000);

  it('a line on stdin answers first: the question is withdrawn and a late `attach --answer` is told', async () => {
    const run = startRun(['--json']);
    const [file] = await until('the question file', () => {
      const files = questionFiles(run.runDir);
      return files.length > 0 ? files : undefined;
    });
    run.child.stdin?.write('A\n');
    expect(await run.exited).toBe(0);
    expect(questionFiles(run.runDir)).toEqual([]);
    const record = JSON.parse(readFileSync(path.join(run.runDir, 'answers', file!), 'utf8'));
    expect(record).toMatchObject({ choice: 'A', answered_by: ME });
    expect(events(run.runDir).find((e) => e.kind === 'interview.complete')?.data).toMatchObject({
      key: 'A',
    });
    const late = await attach(run.runDir, 'R');
    expect(late.status).toBe(1);
    expect(late.stderr).toMatch(/the run ended without asking a question/);
  }, 60_000);

  it('`attach --answer` with no such option says which options there are and leaves the question waiting', async () => {
    const run = startRun();
    await until('the question file', () => (questionFiles(run.runDir).length > 0 ? true : undefined));
    const wrong = await attach(run.runDir, 'Maybe');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe(
      'attractor: "Maybe" is none of the options of gate gate: [A] Approve, [R] Reject.\n',
    );
    expect(questionFiles(run.runDir)).toHaveLength(1);
    expect((await attach(run.runDir, 'approve')).status).toBe(0);
    expect(await run.exited).toBe(0);
    expect(events(run.runDir).some((e) => e.node_id === 'ship' && e.kind === 'node.complete')).toBe(true);
  }, 60_000);

  it('a run killed at its gate: `attach --answer` answers it meanwhile; `attractor resume` takes that answer', async () => {
    const run = startRun();
    const [file] = await until('the question file', () => {
      const files = questionFiles(run.runDir);
      return files.length > 0 ? files : undefined;
    });
    run.child.kill('SIGKILL');
    await run.exited;
    expect(questionFiles(run.runDir)).toEqual([file]);
    expect((await attach(run.runDir, 'A')).status).toBe(0);
    const resumed = spawnSync(process.execPath, [BIN, 'resume', run.runDir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    expect(resumed.stderr).toContain(`[i] gate: answered by ${ME}`);
    expect(resumed.status).toBe(0);
    expect(questionFiles(run.runDir)).toEqual([]);
    const completes = events(run.runDir).filter((e) => e.kind === 'interview.complete');
    expect(completes.map((e) => e.data['key'])).toEqual(['A']);
    expect(events(run.runDir).some((e) => e.node_id === 'ship' && e.kind === 'node.complete')).toBe(true);
  }, 60_000);

  it('`attach --answer` answers a run that ended once before and was resumed (an earlier finalize in its log)', async () => {
    const run = startRun();
    await until('the question file', () => (questionFiles(run.runDir).length > 0 ? true : undefined));
    run.child.kill('SIGKILL');
    await run.exited;
    // The log of a run that was paused, then resumed and is waiting at its gate again.
    const at = new Date().toISOString();
    appendFileSync(
      path.join(run.runDir, 'events.jsonl'),
      `${JSON.stringify({ kind: 'pipeline.finalize', data: { status: 'paused' }, timestamp: at })}\n${JSON.stringify({ kind: 'pipeline.resume', data: {}, timestamp: at })}\n`,
    );
    const answered = await attach(run.runDir, 'A');
    expect(answered.stderr).not.toContain('ended without asking');
    expect(answered.status).toBe(0);
    expect(readdirSync(path.join(run.runDir, 'answers'))).toHaveLength(1);
  }, 60_000);

  it('a closed stdin fails a gate without a default at once, naming every way to answer', async () => {
    const run = startRun();
    run.child.stdin?.end();
    expect(await run.exited).toBe(1);
    expect(run.stdout()).toMatch(
      /needs an answer, but stdin is closed and the gate has no default.*--auto-approve.*--scenario.*human\.default_choice and human\.timeout.*attractor attach <run-dir> --answer/s,
    );
    // The question is closed for good: a late answer finds it taken.
    expect(questionFiles(run.runDir)).toEqual([]);
    const late = await attach(run.runDir, 'A', '--question', 'gate-1');
    expect(late.status).toBe(1);
    expect(late.stderr).toBe(
      'attractor: question gate-1 is closed: its gate stopped waiting without an answer.\n',
    );
  }, 60_000);
});
