import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../../helpers/ensure-dist.js';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  type FakeMessage,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import { type RecordedRequest, startScriptedServer } from '../../helpers/sse.js';
import { runCli } from '../run-cli.js';

const run = promisify(execFile);
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(() => ensureDist(), 180_000);

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-cassette-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const PIPELINE = `digraph greet {
  start [shape=Mdiamond]; exit [shape=Msquare];
  write [prompt="Create greeting.txt", llm_model="claude-sonnet-4-6"];
  check [prompt="Append a line to greeting.txt", llm_model="claude-sonnet-4-6"];
  start -> write -> check -> exit;
}`;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function attractor(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  // Only what the run needs: no key of the developer's machine leaks in, PATH lets the shell tool work.
  const base = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd, NO_COLOR: '1' };
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env: { ...base, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * The same command through the CLI's `main()` in this process, with the same environment: used to record
 * and to see a mismatch refused. Replays stay real processes, with no key in their environment.
 */
async function attractorInProcess(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  const base = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: cwd, NO_COLOR: '1' };
  return runCli(args, { cwd, env: { ...base, ...env } });
}

/** What a replay must reproduce: the tool calls and routing, in order (ids and timing aside). */
function story(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { kind: string; node_id?: string; data: Record<string, unknown> })
    .filter((e) =>
      ['node.start', 'node.complete', 'agent.tool_call_start', 'agent.tool_call_end'].includes(e.kind),
    )
    .map((e) =>
      e.kind === 'agent.tool_call_start'
        ? `${e.node_id} call ${String(e.data['tool_name'])} ${JSON.stringify(e.data['arguments'])}`
        : e.kind === 'agent.tool_call_end'
          ? `${e.node_id} result ${String(e.data['output'])}`
          : `${e.kind} ${e.node_id} ${String(e.data['status'] ?? '')}`,
    );
}

const usage = { input_tokens: 800, output_tokens: 40 };

describe('attractor run --record / --replay', () => {
  it('replays a recorded run with no key and no server: same files, same tool calls, same routing', async () => {
    const server = await startFakeAnthropicServer();
    server.enqueue(
      anthropicStreamReply({
        content: [
          {
            type: 'tool_use',
            id: 'toolu_a',
            name: 'write_file',
            input: { path: 'greeting.txt', content: 'hello\n' },
          },
        ],
        stop_reason: 'tool_use',
        usage,
      }),
      anthropicStreamReply({ content: [{ type: 'text', text: 'Created greeting.txt.' }], usage }),
      anthropicStreamReply({
        content: [
          {
            type: 'tool_use',
            id: 'toolu_b',
            name: 'shell',
            input: { command: 'echo world >> greeting.txt' },
          },
        ],
        stop_reason: 'tool_use',
        usage,
      }),
      anthropicStreamReply({ content: [{ type: 'text', text: 'Appended a line.' }], usage }),
    );
    const recordDir = workspace();
    writeFileSync(path.join(recordDir, 'greet.dot'), PIPELINE);
    const recorded = await attractorInProcess(
      ['run', 'greet.dot', '--json', '--logs-dir', 'run', '--record', 'greet.cassette.jsonl'],
      recordDir,
      { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin },
    );
    await server.close();
    expect(recorded.stderr).toContain('Completed');
    expect(recorded.code).toBe(0);
    expect(readFileSync(path.join(recordDir, 'greeting.txt'), 'utf8')).toBe('hello\nworld\n');
    const cassette = readFileSync(path.join(recordDir, 'greet.cassette.jsonl'), 'utf8').trim().split('\n');
    expect(cassette.map((line) => JSON.parse(line).caller)).toEqual(['write', 'write', 'check', 'check']);
    expect(cassette.join('\n')).not.toContain(recordDir);

    // Another directory, no key, the server gone.
    const replayDir = workspace();
    copyFileSync(path.join(recordDir, 'greet.dot'), path.join(replayDir, 'greet.dot'));
    copyFileSync(path.join(recordDir, 'greet.cassette.jsonl'), path.join(replayDir, 'greet.cassette.jsonl'));
    const replayed = await attractor(
      ['run', 'greet.dot', '--json', '--logs-dir', 'run', '--replay', 'greet.cassette.jsonl'],
      replayDir,
      {},
    );
    expect(replayed.stderr).toContain('Completed');
    expect(replayed.code).toBe(0);
    expect(readFileSync(path.join(replayDir, 'greeting.txt'), 'utf8')).toBe('hello\nworld\n');
    expect(story(replayed.stdout)).toEqual(story(recorded.stdout));
    for (const node of ['write', 'check']) {
      expect(readFileSync(path.join(replayDir, 'run', node, 'response.md'), 'utf8')).toBe(
        readFileSync(path.join(recordDir, 'run', node, 'response.md'), 'utf8'),
      );
    }

    // A pipeline that asks something else fails, naming the node and the first differing field.
    const changedDir = workspace();
    writeFileSync(
      path.join(changedDir, 'greet.dot'),
      PIPELINE.replace('Create greeting.txt', 'Create farewell.txt'),
    );
    copyFileSync(path.join(recordDir, 'greet.cassette.jsonl'), path.join(changedDir, 'greet.cassette.jsonl'));
    const changed = await attractorInProcess(
      ['run', 'greet.dot', '--replay', 'greet.cassette.jsonl'],
      changedDir,
      {},
    );
    expect(changed.code).toBe(1);
    expect(changed.stdout + changed.stderr).toMatch(
      /call #1 of write .*does not match the cassette.*messages\[0\]/,
    );
  }, 120_000);

  it('records and replays the calls of a subagent the node’s agent spawns', async () => {
    // The parent and its subagent call the model concurrently, so replies go by conversation, not by queue
    // order: the subagent's conversation starts with its task; each side's step is its message count.
    const TASK = 'Write sub.txt containing "from the subagent".';
    const parent: FakeMessage[] = [
      {
        content: [{ type: 'tool_use', id: 'toolu_spawn', name: 'spawn_agent', input: { task: TASK } }],
        stop_reason: 'tool_use',
        usage,
      },
      {
        content: [{ type: 'tool_use', id: 'toolu_wait', name: 'wait', input: { agent_id: 'agent-1' } }],
        stop_reason: 'tool_use',
        usage,
      },
      { content: [{ type: 'text', text: 'The subagent wrote sub.txt.' }], usage },
    ];
    const sub: FakeMessage[] = [
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_sub',
            name: 'write_file',
            input: { path: 'sub.txt', content: 'from the subagent\n' },
          },
        ],
        stop_reason: 'tool_use',
        usage,
      },
      { content: [{ type: 'text', text: 'sub.txt written.' }], usage },
    ];
    const server = await startScriptedServer((request: RecordedRequest) => {
      const body = request.body as { messages: Array<{ content: unknown }> };
      const first = JSON.stringify(body.messages[0]?.content ?? '');
      const script = first.includes('containing \\"from the subagent') ? sub : parent;
      const message = script[(body.messages.length - 1) / 2];
      return message
        ? anthropicStreamReply(message)
        : { kind: 'json', status: 500, body: { error: { message: 'unexpected request' } } };
    });
    cleanups.push(() => server.close());
    const pipeline = `digraph delegate {
      start [shape=Mdiamond]; exit [shape=Msquare];
      work [prompt="Have a subagent write sub.txt", llm_model="claude-sonnet-4-6"];
      start -> work -> exit;
    }`;
    const recordDir = workspace();
    writeFileSync(path.join(recordDir, 'delegate.dot'), pipeline);
    const recorded = await attractorInProcess(
      ['run', 'delegate.dot', '--json', '--logs-dir', 'run', '--record', 'delegate.cassette.jsonl'],
      recordDir,
      { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin },
    );
    expect(recorded.stderr).toContain('Completed');
    expect(recorded.code).toBe(0);
    expect(server.requests).toHaveLength(5);
    expect(readFileSync(path.join(recordDir, 'sub.txt'), 'utf8')).toBe('from the subagent\n');
    const cassette = readFileSync(path.join(recordDir, 'delegate.cassette.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { caller: string; request: { messages: unknown[] } });
    expect(cassette.map((entry) => entry.caller)).toEqual(['work', 'work', 'work', 'work', 'work']);
    expect(
      cassette.filter((entry) => JSON.stringify(entry.request.messages[0]).includes('from the subagent')),
    ).toHaveLength(2);

    const replayDir = workspace();
    copyFileSync(path.join(recordDir, 'delegate.dot'), path.join(replayDir, 'delegate.dot'));
    copyFileSync(
      path.join(recordDir, 'delegate.cassette.jsonl'),
      path.join(replayDir, 'delegate.cassette.jsonl'),
    );
    await server.close();
    const replayed = await attractor(
      ['run', 'delegate.dot', '--json', '--logs-dir', 'run', '--replay', 'delegate.cassette.jsonl'],
      replayDir,
      {},
    );
    expect(replayed.stderr).toContain('Completed');
    expect(replayed.code).toBe(0);
    expect(readFileSync(path.join(replayDir, 'sub.txt'), 'utf8')).toBe('from the subagent\n');
    expect(readFileSync(path.join(replayDir, 'run', 'work', 'response.md'), 'utf8')).toBe(
      readFileSync(path.join(recordDir, 'run', 'work', 'response.md'), 'utf8'),
    );
  }, 120_000);
});
