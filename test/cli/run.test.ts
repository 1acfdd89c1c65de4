import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { runCli, STACK_LINE } from './run-cli.js';

const dirs: string[] = [];
// After the file, not after each test: the real-process tests run concurrently.
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-cli-run-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const PIPELINE = `digraph demo {
  graph [goal="Say hello"]
  start [shape=Mdiamond]
  write [prompt="Write hello for $goal"]
  gate [shape=hexagon, label="Ship?"]
  fix [prompt="Fix it"]
  exit [shape=Msquare]
  start -> write -> gate
  gate -> exit [label="[S] Ship"]
  gate -> fix [label="[F] Fix"]
  fix -> gate
}`;

/** The one run under the default layout `<root>/demo/<run id>/`. */
function defaultRunDir(root: string): string {
  const graphDir = path.join(root, 'demo');
  const runs = readdirSync(graphDir);
  expect(runs).toHaveLength(1);
  return path.join(graphDir, runs[0] ?? '');
}

describe('attractor run (in process)', () => {
  it('--json prints only JSON events on stdout, one per line', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--json', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const events = lines.map((l) => JSON.parse(l) as { kind: string });
    expect(events[0]?.kind).toBe('pipeline.start');
    expect(events.at(-1)?.kind).toBe('pipeline.finalize');
    expect(r.stderr).toMatch(/Completed at exit/);
  });

  it('--json carries the same events as events.jsonl, routing decisions and payloads included', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--json', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(0);
    type Line = { kind: string; node_id?: string; data: Record<string, unknown> };
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const logged = readFileSync(path.join(dir, 'runs', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(events).toEqual(logged);
    // --dry-run: the gate takes its first option, "[S] Ship", by its preferred label.
    const decisions = events.filter((e) => e.kind === 'edge.selected').map((e) => e.data);
    expect(decisions.map((d) => `${d['from']}->${d['to']}:${d['step']}`)).toEqual([
      'start->write:weight',
      'write->gate:weight',
      'gate->exit:preferred_label',
    ]);
    const saved = events.filter((e) => e.kind === 'checkpoint.saved');
    expect(saved.every((e) => e.node_id === e.data['current_node'])).toBe(true);
    const complete = events.find((e) => e.kind === 'pipeline.complete');
    expect(complete?.data).toMatchObject({ artifact_count: 0 });
    expect(typeof complete?.data['duration_ms']).toBe('number');
  });

  it('plain lines show progress and the run directory', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/→ write/);
    expect(r.stdout).toMatch(/Completed at exit \(quality: clean\)/);
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('a scenario scripts outcomes and gate answers; the manifest records the mode', async () => {
    const scenario = {
      nodes: { write: [{ outcome: 'success', notes: 'scripted' }] },
      answers: { gate: ['F', 'S'] },
    };
    const dir = workspace({ 'p.dot': PIPELINE, 's.json': JSON.stringify(scenario) });
    const r = await runCli(['run', 'p.dot', '--scenario', 's.json', '--json', '--logs-dir', 'runs'], {
      cwd: dir,
    });
    expect(r.code).toBe(0);
    const started = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; node_id?: string })
      .filter((e) => e.kind === 'node.start')
      .map((e) => e.node_id);
    expect(started).toEqual(['start', 'write', 'gate', 'fix', 'gate', 'exit']);
    const manifest = JSON.parse(readFileSync(path.join(path.join(dir, 'runs'), 'manifest.json'), 'utf8'));
    expect(manifest.options.scenario).toBe(path.join(dir, 's.json'));
  });

  it.each([
    {
      name: 'malformed scenario JSON',
      files: { 's.json': '{"nodes": ' },
      args: ['--scenario', 's.json'],
      message: /not valid JSON/,
    },
    {
      name: 'scenario with a wrong shape',
      files: { 's.json': '{"nodes": {"write": "success"}}' },
      args: ['--scenario', 's.json'],
      message: /invalid scenario at nodes\.write/,
    },
    {
      name: 'a real run with no provider key',
      files: {},
      args: [],
      message:
        /set one of ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY.*--dry-run, --scenario FILE or --replay FILE/,
    },
  ] as Array<{ name: string; files: Record<string, string>; args: string[]; message: RegExp }>)(
    '$name is one clear error, exit 1',
    async ({ files, args, message }) => {
      const dir = workspace({ 'p.dot': PIPELINE, ...files });
      const r = await runCli(['run', 'p.dot', ...args, '--logs-dir', 'runs'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(STACK_LINE);
    },
  );

  it('a human gate without a terminal, --auto-approve or an answer fails the run and says how to answer', async () => {
    const dir = workspace({ 'p.dot': PIPELINE, 's.json': '{}' });
    // A real process with stdin closed: an open stdin could still answer (test/cli/answer-channel-process).
    ensureDist();
    const child = spawnSync(
      process.execPath,
      [BIN, 'run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'runs'],
      {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    const r = { code: child.status, stdout: child.stdout };
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/--auto-approve/);
    // Once, on the gate's own line; the summary names where it failed without repeating it.
    expect(r.stdout.match(/needs an answer/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/✗ gate fail: human gate gate needs an answer/);
    expect(r.stdout).toMatch(/^Failed at gate \(quality: failed — failed: gate\)\. Run directory: runs$/m);
    // ensureDist may build dist/ first when src/ changed since the last build.
  }, 180_000);

  it('a degraded run says which nodes failed, were partial or retried, in the summary line', async () => {
    const dot = `digraph demo {
      start [shape=Mdiamond]
      flaky [prompt="Try", max_retries=2]
      test [shape=parallelogram, tool_command="false"]
      review [prompt="Review", allow_partial=true]
      fix [prompt="Fix"]
      exit [shape=Msquare]
      start -> flaky -> test
      test -> review [condition="outcome=success"]
      test -> fix [condition="outcome=fail"]
      fix -> review -> exit
    }`;
    const scenario = {
      nodes: {
        flaky: [{ outcome: 'retry' }, { outcome: 'success' }],
        test: [{ outcome: 'fail', failure_reason: 'tests red' }],
        review: [{ outcome: 'partial_success' }],
      },
    };
    const dir = workspace({ 'p.dot': dot, 's.json': JSON.stringify(scenario) });
    const r = await runCli(['run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Completed at exit \(quality: degraded — failed: test; partial: review; retried: flaky\)\. Run directory: runs$/m,
    );
    const json = await runCli(['run', 'p.dot', '--scenario', 's.json', '--json', '--logs-dir', 'runs-2'], {
      cwd: dir,
    });
    const finalize = JSON.parse(json.stdout.trim().split('\n').at(-1) ?? '');
    expect(finalize.data).toMatchObject({
      quality: 'degraded',
      failed_nodes: ['test'],
      partial_nodes: ['review'],
    });
  });

  it('a dead end completes (exit 0) but the summary line says degraded and where it ended', async () => {
    const dot = `digraph demo {
      start [shape=Mdiamond]
      check [prompt="Check"]
      exit [shape=Msquare]
      start -> check
      check -> exit [condition="context.ok=true"]
    }`;
    const dir = workspace({ 'p.dot': dot });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Completed at check \(quality: degraded — ended at check: no edge matched\)\. Run directory: runs$/m,
    );
    // validate warned before the run started, with the fix.
    expect(r.stderr).toMatch(/warning dead_end: Node "check" has only conditional edges/);
  });

  it('red, then green: a test that failed and was then fixed leaves the run clean, naming it recovered', async () => {
    const dot = `digraph demo {
      start [shape=Mdiamond]
      test [shape=parallelogram, tool_command="true"]
      fix [prompt="Fix", max_visits=3]
      exit [shape=Msquare]
      start -> test
      test -> exit [condition="outcome=success"]
      test -> fix [condition="outcome=fail"]
      fix -> test
    }`;
    const scenario = { nodes: { test: [{ outcome: 'fail' }, { outcome: 'success' }] } };
    const dir = workspace({ 'p.dot': dot, 's.json': JSON.stringify(scenario) });
    const r = await runCli(['run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Completed at exit \(quality: clean — recovered: test\)\. Run directory: runs$/m,
    );
  });

  it('prints lint warnings on stderr before running, keeping --json stdout to events', async () => {
    const warned = PIPELINE.replace(
      'write [prompt="Write hello for $goal"]',
      'write [prompt="Write hello for $goal", goal_gate=true]',
    );
    const dir = workspace({ 'p.dot': warned });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--json', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning goal_gate_has_retry/);
    expect(r.stdout).not.toMatch(/goal_gate_has_retry/);
  });

  it('warns, at its place in the scenario file and before the run starts, about a node the pipeline does not have', async () => {
    const dir = workspace({
      'p.dot': PIPELINE,
      's.json':
        '{\n  "nodes": {"wirte": [{"outcome": "success"}]},\n  "answers": {"gate": ["S"], "gaet": ["S"]}\n}',
    });
    // Both streams in the order they were written.
    const lines: string[] = [];
    const r = await runCli(['run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'runs'], {
      cwd: dir,
      stdout: (text) => lines.push(`out ${text}`),
      stderr: (text) => lines.push(`err ${text}`),
    });
    expect(r.code).toBe(0);
    expect(lines.slice(0, 3)).toEqual([
      'err s.json:2:13: warning scenario_unknown_node: the scenario scripts node "wirte", which this pipeline does not have (fix: check the node id against: start, write, gate, fix, exit)\n',
      'err s.json:3:30: warning scenario_unknown_node: the scenario scripts node "gaet", which this pipeline does not have (fix: check the node id against: start, write, gate, fix, exit)\n',
      expect.stringMatching(/^out ▶ demo/),
    ]);
  });

  it('an unknown flag is a usage error (exit 2)', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--frobnicate'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--frobnicate'/);
  });

  it('--checkpoint-dir keeps a timestamped history; resuming a finished run says so and exits 0', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs', '--checkpoint-dir', 'ckpts'], {
      cwd: dir,
    });
    expect(r.code).toBe(0);
    const history = readdirSync(path.join(dir, 'ckpts'));
    expect(history.length).toBeGreaterThan(3);
    expect(history.every((f) => /^checkpoint_\d+\.json$/.test(f))).toBe(true);
    const again = await runCli(['resume', path.join(dir, 'runs')], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Run \S+ already completed at exit; nothing to resume\.\n$/);
  });

  it('--logs-dir DIR is the run directory: its files go directly there, and the first lines say so', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'out/run-1'], { cwd: dir });
    expect(r.code).toBe(0);
    const runDir = path.join(dir, 'out', 'run-1');
    for (const file of ['manifest.json', 'checkpoint.json', 'events.jsonl', 'pipeline.dot'])
      expect(existsSync(path.join(runDir, file))).toBe(true);
    expect(existsSync(path.join(runDir, 'write', 'status.json'))).toBe(true);
    const [first, second] = r.stdout.split('\n');
    expect(first).toMatch(/^▶ demo/);
    expect(second).toBe(`  run directory: ${path.join('out', 'run-1')}`);
  });

  it('--json: pipeline.start carries the absolute run directory', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--json', '--logs-dir', 'runs'], { cwd: dir });
    const start = JSON.parse(r.stdout.split('\n')[0] ?? '') as { kind: string; data: { run_dir: string } };
    expect(start.kind).toBe('pipeline.start');
    expect(start.data.run_dir).toBe(path.join(dir, 'runs'));
  });

  it('a --logs-dir that already holds a run is refused, naming resume and leaving that run alone', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    expect((await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs'], { cwd: dir })).code).toBe(0);
    const before = readFileSync(path.join(dir, 'runs', 'checkpoint.json'), 'utf8');
    const r = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^attractor: runs already holds a run \(.+\): continue it with `attractor resume runs`, or give a fresh directory/,
    );
    expect(r.stdout).toBe('');
    expect(readFileSync(path.join(dir, 'runs', 'checkpoint.json'), 'utf8')).toBe(before);
  });

  it('without --logs-dir each run gets .attractor-runs/<graph>/<run id>/', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run'], { cwd: dir });
    expect(r.code).toBe(0);
    const runDir = defaultRunDir(path.join(dir, '.attractor-runs'));
    expect(existsSync(path.join(runDir, 'checkpoint.json'))).toBe(true);
    expect(r.stdout.split('\n')[1]).toBe(`  run directory: ${path.relative(dir, runDir)}`);
  });

  it("resume continues in the run's own directory, so it takes no --logs-dir (exit 2)", async () => {
    const dir = workspace({});
    const r = await runCli(['resume', 'runs', '--logs-dir', 'other'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--logs-dir'/);
  });

  it('a run refused by validation prints the findings as validate does: each location once, the path as typed', async () => {
    const unreachable = PIPELINE.replace('fix -> gate', 'fix -> gate\n  lost [prompt="x"]');
    const dir = workspace({ 'p.dot': unreachable });
    const validated = await runCli(['validate', 'p.dot'], { cwd: dir });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs'], { cwd: dir });
    expect(r.code).toBe(1);
    const finding = validated.stdout.split('\n')[0] ?? '';
    expect(finding).toMatch(/^p\.dot:12:3: error reachability: /);
    expect(r.stderr.split('\n')[0]).toBe(finding);
    expect(r.stderr).toMatch(/^✗ p\.dot: invalid, 1 error; the run did not start\.$/m);
    expect(r.stderr).not.toContain(dir);
    expect(r.stderr.match(/p\.dot:12:3/g)).toHaveLength(1);
    expect(existsSync(path.join(dir, 'runs'))).toBe(false);
  });

  it('a syntax error found by run is located in the path as typed, like validate', async () => {
    const dir = workspace({ 'p.dot': 'digraph p {\n  start [shape=Mdiamond\n  exit [shape=Msquare]\n}' });
    const r = await runCli(['run', 'p.dot', '--dry-run'], { cwd: dir });
    const v = await runCli(['validate', 'p.dot'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^attractor: p\.dot:2:9: The "\[" opened here is never closed/);
    expect(v.stderr).toBe(r.stderr);
  });

  it.each([
    [
      ['--model', 'gpt-5'],
      'attractor: --model applies to real runs; this dry run simulates every model call.',
    ],
    [
      ['--model', 'gpt-5', '--provider', 'openai'],
      'attractor: --model and --provider apply to real runs; this dry run simulates every model call.',
    ],
  ])('a dry run with %j says once that they apply to real runs', async (extra, note) => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs', ...extra], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l === note)).toHaveLength(1);
    const quiet = await runCli(['run', 'p.dot', '--dry-run', '--logs-dir', 'runs-2'], { cwd: dir });
    expect(quiet.stderr).not.toMatch(/real runs/);
  });

  it('resume of a DOT file says it is not a run and how to start one', async () => {
    const dir = workspace({ 'p.dot': PIPELINE });
    const r = await runCli(['resume', 'p.dot'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'attractor: p.dot is not a run directory or a checkpoint file, so there is nothing to resume; to start a run of a pipeline: attractor run p.dot\n',
    );
  });

  it('resume of a missing run directory is a clear error', async () => {
    const dir = workspace({});
    const r = await runCli(['resume', 'nowhere'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nothing to resume at/);
  });
});

// Concurrent: these tests mostly wait on their own child processes (a tool's `sleep`, a signal's effect).
describe.concurrent('attractor run (real process)', () => {
  beforeAll(() => ensureDist(), 180_000);

  const SLOW = `digraph demo {
    start [shape=Mdiamond]
    first [shape=parallelogram, tool_command="echo first"]
    slow [shape=parallelogram, tool_command="sleep 2 && echo slow-done"]
    last [shape=parallelogram, tool_command="echo last"]
    exit [shape=Msquare]
    start -> first -> slow -> last -> exit
  }`;

  function readEvents(
    runDir: string,
  ): Array<{ kind: string; node_id?: string; data: Record<string, unknown> }> {
    return readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  }

  async function startUntil(dir: string, predicate: (line: string) => boolean) {
    const child = spawn(
      process.execPath,
      [BIN, 'run', 'p.dot', '--scenario', 's.json', '--json', '--logs-dir', 'runs'],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never saw the line; stdout: ${out}`)), 20_000);
      child.stdout.on('data', (d) => {
        out += String(d);
        if (out.split('\n').some(predicate)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // A node's start is heard before its checkpoint is on disk; its work starts only after: killed "in
    // the middle of a node" means once checkpoint.json names it.
    const started = parsedLine(out.split('\n').find(predicate));
    if (started?.kind === 'node.start' && typeof started.node_id === 'string')
      await untilCheckpointNames(path.join(dir, 'runs'), started.node_id);
    return { child, exited, output: () => ({ out, err }) };
  }

  /**
   * `attractor resume` as a real process with stdin closed, awaited without blocking this worker (the
   * tests beside it are waiting on their own processes meanwhile).
   */
  async function resumeProcess(runDir: string, cwd: string) {
    const child = spawn(process.execPath, [BIN, 'resume', runDir], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { status, stdout, stderr };
  }

  /**
   * `attractor resume` in this process: what these tests prove is how a killed or interrupted process
   * left the run, so only that run needs to be a real process (the first test resumes with the real binary).
   */
  async function resumeInProcess(args: string[], cwd: string) {
    const r = await runCli(['resume', ...args], { cwd });
    return { status: r.code, stdout: r.stdout, stderr: r.stderr };
  }

  function parsedLine(line: string | undefined): { kind?: string; node_id?: unknown } | undefined {
    try {
      return line ? JSON.parse(line) : undefined;
    } catch {
      return undefined;
    }
  }

  async function untilCheckpointNames(runDir: string, node: string): Promise<void> {
    const until = Date.now() + 10_000;
    for (;;) {
      try {
        if (JSON.parse(readFileSync(path.join(runDir, 'checkpoint.json'), 'utf8')).current_node === node)
          return;
      } catch {
        // not written yet, or being replaced
      }
      if (Date.now() > until) throw new Error(`checkpoint.json never named ${node}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it('survives SIGKILL in the middle of a node: resume finishes and no completed node runs twice', async () => {
    const dir = workspace({ 'p.dot': SLOW, 's.json': '{}' });
    const { child, exited } = await startUntil(
      dir,
      (l) => l.includes('"node.start"') && l.includes('"slow"'),
    );
    child.kill('SIGKILL');
    await exited;
    const runDir = path.join(dir, 'runs');
    const checkpoint = JSON.parse(readFileSync(path.join(runDir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.current_node).toBe('slow');

    const resumed = await resumeProcess(runDir, dir);
    expect(resumed.status).toBe(0);
    const completes = readEvents(runDir).filter((e) => e.kind === 'node.complete');
    const counts = new Map<string, number>();
    for (const e of completes) counts.set(e.node_id ?? '', (counts.get(e.node_id ?? '') ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ start: 1, first: 1, slow: 1, last: 1, exit: 1 });
    expect(readFileSync(path.join(runDir, 'slow', 'stdout.log'), 'utf8')).toContain('slow-done');
  }, 60_000);

  it('after SIGKILL, resume stops the tool the dead run left running before re-running its node', async () => {
    // Outside the sandbox on purpose: a sandboxed tool dies with its engine (--die-with-parent, tested
    // in test/shared/process/sandboxed-process-group.test.ts), so only an unsandboxed one can be orphaned.
    const marked = `digraph marked {
    start [shape=Mdiamond]
    slow [shape=parallelogram, sandbox="off", tool_command="if [ -e marks ]; then echo again >> marks; else echo start >> marks; sleep 60; echo end >> marks; fi"]
    exit [shape=Msquare]
    start -> slow -> exit
  }`;
    const dir = workspace({ 'p.dot': marked, 's.json': '{}' });
    const { child, exited } = await startUntil(
      dir,
      (l) => l.includes('"node.start"') && l.includes('"slow"'),
    );
    const marks = path.join(dir, 'marks');
    const until = Date.now() + 10_000;
    while (!existsSync(marks) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    const runDir = path.join(dir, 'runs');
    const ledger = JSON.parse(readFileSync(path.join(runDir, 'processes.json'), 'utf8'));
    expect(ledger.processes).toEqual([expect.objectContaining({ node: 'slow' })]);
    const orphan = ledger.processes[0] as { pgid: number };
    expect(groupAlive(orphan.pgid)).toBe(true);
    const resumed = await resumeInProcess([runDir], dir);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toMatch(/stopped a process group left by the interrupted run: slow/);
    // The orphan (a minute-long sleep) was stopped before the node ran again: its group is gone, and it
    // never wrote "end".
    expect(groupAlive(orphan.pgid)).toBe(false);
    expect(readFileSync(marks, 'utf8').trim().split('\n')).toEqual(['start', 'again']);
    const stopped = readEvents(runDir).filter((e) => e.kind === 'process.stopped');
    expect(stopped).toEqual([expect.objectContaining({ node_id: 'slow' })]);
    expect(JSON.parse(readFileSync(path.join(runDir, 'processes.json'), 'utf8')).processes).toEqual([]);
  }, 60_000);

  it('resume from another directory finds files the pipeline names relative to itself (a child pipeline)', async () => {
    const parent = `digraph parent {
    start [shape=Mdiamond]
    slow [shape=parallelogram, tool_command="sleep 2"]
    manage [shape=house, stack.child_dotfile="kid.dot", manager.poll_interval="50ms", manager.actions="observe"]
    exit [shape=Msquare]
    start -> slow -> manage -> exit
  }`;
    const kid = `digraph kid { start [shape=Mdiamond]; work [shape=parallelogram, tool_command="echo kid-ran"]; exit [shape=Msquare]; start -> work -> exit }`;
    const dir = workspace({ 'p.dot': parent, 'kid.dot': kid, 's.json': '{}' });
    const { child, exited } = await startUntil(
      dir,
      (l) => l.includes('"node.start"') && l.includes('"slow"'),
    );
    child.kill('SIGKILL');
    await exited;
    const resumed = await resumeInProcess([path.join(dir, 'runs')], tmpdir());
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    expect(
      readEvents(path.join(dir, 'runs')).some(
        (e) => e.kind === 'node.complete' && e.node_id === 'manage' && e.data['status'] === 'success',
      ),
    ).toBe(true);
  }, 60_000);

  it('an interrupted idempotent=false node is run again only after confirmation (--auto-approve), recorded in the events', async () => {
    const deploy = `digraph deploy {
    start [shape=Mdiamond]
    ship [shape=parallelogram, tool_command="echo shipped >> shipments; sleep 3", idempotent=false]
    exit [shape=Msquare]
    start -> ship -> exit
  }`;
    const dir = workspace({ 'p.dot': deploy, 's.json': '{}' });
    const { child, exited } = await startUntil(
      dir,
      (l) => l.includes('"node.start"') && l.includes('"ship"'),
    );
    child.kill('SIGKILL');
    await exited;
    const runDir = path.join(dir, 'runs');
    // A real process: its stdin is closed, so nobody can confirm (in this process stdin stays open).
    const refused = await resumeProcess(runDir, dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/"ship" is marked idempotent=false.*--auto-approve/s);
    expect(STACK_LINE.test(refused.stderr)).toBe(false);
    expect(readEvents(runDir).some((e) => e.kind.startsWith('resume.rerun'))).toBe(false);
    const confirmed = await resumeInProcess([runDir, '--auto-approve'], dir);
    expect(confirmed.status).toBe(0);
    expect(
      readEvents(runDir)
        .filter((e) => e.kind === 'resume.rerun_confirmed')
        .map((e) => e.node_id),
    ).toEqual(['ship']);
  }, 60_000);

  it('SIGINT once finishes the node, checkpoints and exits 130 with the resume command; resume completes', async () => {
    const dir = workspace({ 'p.dot': SLOW, 's.json': '{}' });
    const { child, exited, output } = await startUntil(
      dir,
      (l) => l.includes('"node.start"') && l.includes('"slow"'),
    );
    child.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(130);
    expect(output().err).toMatch(/Resume with: attractor resume/);
    const runDir = path.join(dir, 'runs');
    const events = readEvents(runDir);
    expect(events.some((e) => e.kind === 'node.complete' && e.node_id === 'slow')).toBe(true);
    expect(events.some((e) => e.kind === 'node.start' && e.node_id === 'last')).toBe(false);
    const resumed = await resumeInProcess([runDir], dir);
    expect(resumed.status).toBe(0);
    expect(existsSync(path.join(runDir, 'last', 'stdout.log'))).toBe(true);
  }, 60_000);

  it('SIGINT twice aborts the running node at once and checkpoints it as the resume point', async () => {
    const dir = workspace({ 'p.dot': SLOW.replace('sleep 2', 'sleep 30'), 's.json': '{}' });
    const { child, exited, output } = await startUntil(
      dir,
      (l) => l.includes('"node.start"') && l.includes('"slow"'),
    );
    const began = Date.now();
    child.kill('SIGINT');
    // Two signals sent at once may arrive as one: the second goes once the first was heard.
    await vi.waitFor(() => expect(output().err).toMatch(/Ctrl-C again to abort now/), { timeout: 10_000 });
    child.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(130);
    expect(Date.now() - began).toBeLessThan(10_000);
    const checkpoint = JSON.parse(readFileSync(path.join(path.join(dir, 'runs'), 'checkpoint.json'), 'utf8'));
    expect(checkpoint.current_node).toBe('slow');
    expect(checkpoint.status).toBe('cancelled');
  }, 60_000);
});

/**
 * Whether a live process of group `pgid` remains (Linux `/proc`): a stopped orphan may linger as a zombie
 * until its adoptive parent reaps it, and a zombie runs nothing.
 */
function groupAlive(pgid: number): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}
