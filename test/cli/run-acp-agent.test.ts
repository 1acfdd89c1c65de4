/**
 * End-to-end: the `attractor` CLI runs codergen nodes through an external ACP agent — the fake agent of
 * test/fixtures/acp, written with the SDK's agent side, always a real child process. The CLI itself is a
 * real child process where the test is about the process (its exit, stdin, signals, PATH), and runs in
 * this process (`main()`, the same code) where the test is about the conversation with the agent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist, ROOT } from '../helpers/ensure-dist.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { processAlive as alive } from '../helpers/process-alive.js';
import { runCli } from './run-cli.js';

const FAKE_AGENT = path.join(ROOT, 'test', 'fixtures', 'acp', 'fake-agent.mjs');
const AGENT_COMMAND = `${process.execPath} ${FAKE_AGENT}`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(() => ensureDist(), 180_000);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
  events: Array<{ kind: string; node_id?: string; data: Record<string, unknown> }>;
  log: Array<Record<string, unknown>>;
}

function pipeline(nodeAttrs: string, extra = ''): string {
  return `digraph acp {
  graph [goal="Say hello"${extra}]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Write hello for $goal", agent="acp", agent_command="${AGENT_COMMAND}"${nodeAttrs}]
  start -> work -> exit
}`;
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-acp-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

function start(dir: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, 'run', 'p.dot', '--json', '--logs-dir', 'runs', ...args], {
    cwd: dir,
    env: { ...process.env, FAKE_ACP_LOG: path.join(dir, 'agent-log.jsonl'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function collect(child: ChildProcess, dir: string, onStdout?: (text: string) => void): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
    onStdout?.(stdout);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return readRun(dir, code, stdout, stderr);
}

function readRun(dir: string, code: number | null, stdout: string, stderr: string): Run {
  const logFile = path.join(dir, 'agent-log.jsonl');
  return {
    code,
    stdout,
    stderr,
    dir,
    events: stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line)),
    log: existsSync(logFile)
      ? readFileSync(logFile, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
      : [],
  };
}

/** `attractor run` as a child process. */
async function runProcess(
  dot: string,
  args: string[] = [],
  env: Record<string, string> = {},
  files = {},
): Promise<Run> {
  const dir = workspace({ 'p.dot': dot, ...files });
  return collect(start(dir, args, env), dir);
}

/** `attractor run` in this process; the agent is still a child process, given the same environment. */
async function run(
  dot: string,
  args: string[] = [],
  env: Record<string, string> = {},
  files = {},
): Promise<Run> {
  const dir = workspace({ 'p.dot': dot, ...files });
  const r = await runCli(['run', 'p.dot', '--json', '--logs-dir', 'runs', ...args], {
    cwd: dir,
    env: { ...process.env, FAKE_ACP_LOG: path.join(dir, 'agent-log.jsonl'), ...env },
  });
  return readRun(dir, r.code, r.stdout, r.stderr);
}

const kinds = (r: Run) => r.events.filter((e) => e.node_id === 'work').map((e) => e.kind);

// Concurrent: most of this file's time is spent waiting on agent and CLI processes (a node timeout, an
// initialize that never comes); every test has its own folder, environment and processes.
describe.concurrent('attractor run with an external ACP agent', () => {
  it('streams the session as agent.* events, writes through the client, runs a terminal, ends the turn', async () => {
    const r = await runProcess(pipeline(', agent_permissions="allow"'), [], {
      FAKE_SECRET_API_KEY: 's3cret',
    });
    expect(r.stderr).toMatch(/Completed at exit/);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(r.dir, 'hello.txt'), 'utf8')).toBe('written by the fake agent\n');
    const response = readFileSync(path.join(r.dir, 'runs', 'work', 'response.md'), 'utf8');
    expect(response).toBe('Hello from the fake agent. I wrote hello.txt. Terminal: terminal says hi');
    expect(kinds(r)).toEqual(
      expect.arrayContaining([
        'agent.session_start',
        'agent.assistant_text_delta',
        'agent.thought_delta',
        'agent.plan',
        'agent.tool_call_start',
        'agent.tool_call_update',
        'agent.tool_call_end',
        'agent.usage',
        'agent.session_end',
      ]),
    );
    const deltas = r.events.filter((e) => e.kind === 'agent.assistant_text_delta').map((e) => e.data.delta);
    expect(deltas.slice(0, 3)).toEqual(['Hello ', 'from ', 'the fake agent. ']);
    const startCall = r.events.find((e) => e.kind === 'agent.tool_call_start');
    expect(startCall?.data).toMatchObject({
      tool_name: 'Write hello.txt',
      call_id: 'call-1',
      arguments: { path: path.join(r.dir, 'hello.txt') },
    });
    expect(r.events.find((e) => e.kind === 'agent.tool_call_end')?.data).toMatchObject({
      call_id: 'call-1',
      status: 'completed',
      is_error: false,
    });
    const usage = r.events.filter((e) => e.kind === 'agent.usage').map((e) => e.data);
    expect(usage).toContainEqual(expect.objectContaining({ cost_usd: 0.0123, context_used: 1200 }));
    expect(usage).toContainEqual({
      provider: 'acp:acp',
      usage: { inputTokens: 100, outputTokens: 50, totalTokens: 150 },
    });
    // The agent side saw: fs + terminal capabilities, the run's cwd, the prompt with the fidelity summary.
    const init = r.log.find((l) => l.method === 'initialize') as { params: Record<string, unknown> };
    expect(init.params.clientCapabilities).toMatchObject({
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
    });
    expect(r.log.find((l) => l.method === 'session/new')?.cwd).toBe(r.dir);
    const prompt = String(r.log.find((l) => l.method === 'session/prompt')?.prompt);
    expect(prompt).toContain('Write hello for Say hello');
    expect(prompt).toContain('Completed stages');
    // Files outside the working directory are refused; terminals get the filtered env, own group.
    expect(r.log.find((l) => 'outside' in l)?.outside).toBe('refused');
    const terminal = r.log.find((l) => 'terminal' in l) as { terminal: string; agentPid: number };
    expect(terminal.terminal).toContain('secret=filtered');
    // Sandboxed (the default): the terminal's group is led by bubblewrap, outside the terminal's own pid
    // namespace, so `ps` inside reads its group as 0 — a group of its own, and not the agent's.
    const pgid = Number(/pg=(\d+)/.exec(terminal.terminal)?.[1]);
    expect(pgid).toBe(0);
    expect(pgid).not.toBe(terminal.agentPid);
    expect(alive(terminal.agentPid)).toBe(false);
    // Every group the node started (agent, terminal) has left the process ledger.
    expect(JSON.parse(readFileSync(path.join(r.dir, 'runs', 'processes.json'), 'utf8')).processes).toEqual(
      [],
    );
  }, 60_000);

  it('agent_permissions="deny" rejects the tool call: no file, the agent says so', async () => {
    const r = await run(pipeline(', agent_permissions="deny"'));
    expect(r.code).toBe(0);
    expect(existsSync(path.join(r.dir, 'hello.txt'))).toBe(false);
    expect(r.log.find((l) => 'permission' in l)?.permission).toEqual({ outcome: 'selected', optionId: 'no' });
    expect(readFileSync(path.join(r.dir, 'runs', 'work', 'response.md'), 'utf8')).toContain(
      'Permission denied',
    );
    expect(r.events.find((e) => e.kind === 'agent.tool_call_end')?.data).toMatchObject({ is_error: true });
  }, 60_000);

  it.each([
    ['Reject', 'no', false],
    ['Allow once', 'yes', true],
  ])(
    'agent_permissions="ask" goes to the run interviewer (scripted answer %s)',
    async (answer, optionId, written) => {
      const scenario = JSON.stringify({ answers: { work: [answer] } });
      const r = await run(pipeline(''), ['--scenario', 's.json'], {}, { 's.json': scenario });
      expect(r.code).toBe(0);
      expect(r.log.find((l) => 'permission' in l)?.permission).toEqual({ outcome: 'selected', optionId });
      expect(existsSync(path.join(r.dir, 'hello.txt'))).toBe(written);
    },
    60_000,
  );

  it('"ask" without a terminal, a scripted answer or --auto-approve fails the node saying how to answer', async () => {
    const r = await runProcess(pipeline(''));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/needs an answer, but stdin is closed.*--auto-approve/);
  }, 60_000);

  it('--auto-approve answers "ask" with allow', async () => {
    const r = await run(pipeline(''), ['--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.log.find((l) => 'permission' in l)?.permission).toEqual({
      outcome: 'selected',
      optionId: 'yes',
    });
  }, 60_000);

  it('a status.json the agent writes in the stage directory decides the outcome', async () => {
    const r = await run(pipeline(''), [], { FAKE_ACP_MODE: 'status' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the agent says the tests fail/);
  }, 60_000);

  it('a node timeout mid-turn sends session/cancel; an agent ignoring it is killed with its group', async () => {
    const r = await runProcess(pipeline(', timeout="8s"'), [], {
      FAKE_ACP_MODE: 'endless',
      FAKE_ACP_IGNORE_CANCEL: '1',
      ATTRACTOR_AGENT_CANCEL_GRACE: '300ms',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/timed out/);
    expect(r.log.some((l) => l.method === 'session/cancel')).toBe(true);
    const pids = r.log.find((l) => 'grandchild' in l) as { grandchild: number; agentPid: number };
    expect(alive(pids.agentPid)).toBe(false);
    expect(alive(pids.grandchild)).toBe(false);
  }, 60_000);

  it('Ctrl-C twice mid-turn cancels the agent (session/cancel honoured) and leaves no process', async () => {
    const dir = workspace({ 'p.dot': pipeline('') });
    const child = start(dir, [], { FAKE_ACP_MODE: 'endless' });
    let sent = false;
    let ledger: Array<{ node: string; command: string; pgid: number }> = [];
    const r = await collect(child, dir, (out) => {
      if (!sent && out.includes('tick 3')) {
        sent = true;
        // While it runs, the agent's process group is in the run's process ledger (crash safety).
        ledger = JSON.parse(readFileSync(path.join(dir, 'runs', 'processes.json'), 'utf8')).processes;
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 100);
      }
    });
    expect(sent).toBe(true);
    expect(ledger).toContainEqual(expect.objectContaining({ node: 'work', command: AGENT_COMMAND }));
    expect(r.code).toBe(130);
    expect(r.log.some((l) => l.method === 'session/cancel')).toBe(true);
    const pids = r.log.find((l) => 'grandchild' in l) as { grandchild: number; agentPid: number };
    expect(alive(pids.agentPid)).toBe(false);
    expect(alive(pids.grandchild)).toBe(false);
  }, 60_000);

  it('a crashing agent fails the node with its exit code and the end of its stderr', async () => {
    const r = await run(pipeline(''), [], { FAKE_ACP_MODE: 'crash' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/exited with code 3 during session\/prompt/);
    expect(r.stderr).toMatch(/fatal: the model exploded/);
  }, 60_000);

  it('an agent that never answers initialize times out with a clear error', async () => {
    // Long enough for the agent process to start and log the request under load (the tests run concurrently).
    const r = await run(pipeline(''), [], { FAKE_ACP_MODE: 'hang-init', ATTRACTOR_AGENT_INIT_TIMEOUT: '4s' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/did not answer initialize within 4000 ms/);
    expect(r.log.some((l) => l.method === 'initialize')).toBe(true);
  }, 60_000);

  it('a missing agent binary is refused before the run starts, naming the command and its install', async () => {
    const dot = `digraph acp {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Hi", agent="claude"]
  start -> work -> exit
}`;
    const r = await runProcess(dot, [], { PATH: path.dirname(process.execPath) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/claude-agent-acp/);
    expect(r.stderr).toMatch(/npm install -g @agentclientprotocol\/claude-agent-acp/);
    expect(r.stdout).toBe('');
    expect(existsSync(path.join(r.dir, 'runs'))).toBe(false);
  }, 60_000);

  it('--dry-run starts no agent and needs no agent binary', async () => {
    const dot = pipeline('')
      .replace(`agent_command="${AGENT_COMMAND}"`, 'agent="claude"')
      .replace('agent="acp", ', '');
    const r = await runProcess(dot, ['--dry-run'], { PATH: path.dirname(process.execPath) });
    expect(r.code).toBe(0);
    expect(r.log).toEqual([]);
    expect(readFileSync(path.join(r.dir, 'runs', 'work', 'response.md'), 'utf8')).toMatch(/^\[simulated\]/);
  }, 60_000);

  it('full fidelity on one thread continues the agent session with session/load (history not replayed as output)', async () => {
    const dot = `digraph acp {
  graph [goal="Say hello", agent="acp", agent_command="${AGENT_COMMAND}", agent_permissions="allow"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  one [prompt="First", fidelity="full", thread_id="t"]
  two [prompt="Second", fidelity="full", thread_id="t"]
  start -> one -> two -> exit
}`;
    const r = await run(dot, [], { FAKE_ACP_MODE: 'stream', FAKE_ACP_CHUNKS: '2' });
    expect(r.code).toBe(0);
    const created = r.log.find((l) => l.method === 'session/new')?.sessionId;
    expect(r.log.find((l) => l.method === 'session/load')?.sessionId).toBe(created);
    const prompts = r.log.filter((l) => l.method === 'session/prompt').map((l) => String(l.prompt));
    expect(prompts[1]?.startsWith('Second')).toBe(true);
    expect(readFileSync(path.join(r.dir, 'runs', 'two', 'response.md'), 'utf8')).toBe('xx');
  }, 60_000);

  it('full fidelity on an agent without session/load: a new session that gets the summary', async () => {
    const dot = `digraph acp {
  graph [goal="Say hello", agent="acp", agent_command="${AGENT_COMMAND}", agent_permissions="allow"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  one [prompt="First", fidelity="full", thread_id="t"]
  two [prompt="Second", fidelity="full", thread_id="t"]
  start -> one -> two -> exit
}`;
    const r = await run(dot, [], { FAKE_ACP_MODE: 'stream', FAKE_ACP_CHUNKS: '2', FAKE_ACP_NO_LOAD: '1' });
    expect(r.code).toBe(0);
    expect(r.log.filter((l) => l.method === 'session/new')).toHaveLength(2);
    expect(r.log.some((l) => l.method === 'session/load')).toBe(false);
    const prompts = r.log.filter((l) => l.method === 'session/prompt').map((l) => String(l.prompt));
    expect(prompts[1]).toMatch(/Completed stages[\s\S]*- one: success[\s\S]*Second/);
    expect(readFileSync(path.join(r.dir, 'runs', 'two', 'response.md'), 'utf8')).toBe('xx');
  }, 60_000);

  it("a traced run's agent starts inside the node's span (TRACEPARENT)", async () => {
    const otlp = await startOtlpReceiver();
    try {
      const r = await run(pipeline(', agent_permissions="allow"'), [], {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin,
      });
      expect(r.code).toBe(0);
      const work = otlp.spans.find((s) => s.attributes['attractor.node.id'] === 'work');
      const initialize = r.log.find((l) => l.method === 'initialize');
      expect(initialize?.traceparent).toBe(`00-${work?.traceId}-${work?.spanId}-01`);
    } finally {
      await otlp.close();
    }
  }, 60_000);
});
