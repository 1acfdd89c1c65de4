import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicJsonReply,
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import type { ScriptedServer } from '../../helpers/sse.js';
import { runCli } from '../run-cli.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-agent-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function anthropic(): Promise<ScriptedServer> {
  const server = await startFakeAnthropicServer();
  cleanups.push(() => server.close());
  return server;
}

const ONE_NODE = `digraph hello {
  goal="Write hello.txt"
  start [shape=Mdiamond]; exit [shape=Msquare];
  write [prompt="Create hello.txt saying hi", llm_model="claude-sonnet-4-6"];
  start -> write -> exit;
}`;

const usage = { input_tokens: 1000, output_tokens: 50 };

function events(stdout: string): Array<{ kind: string; node_id?: string; data: Record<string, unknown> }> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('attractor run with the agent backend (Anthropic Messages fake)', () => {
  it('runs a tool call then a text answer: the file exists and response.md holds the final text', async () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'hello.dot'), ONE_NODE);
    const server = await anthropic();
    server.enqueue(
      anthropicStreamReply({
        content: [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'write_file',
            input: { path: 'hello.txt', content: 'hi\n' },
          },
        ],
        stop_reason: 'tool_use',
        usage,
      }),
      anthropicStreamReply({ content: [{ type: 'text', text: 'Wrote hello.txt.' }], usage }),
    );
    const env = { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin };
    const result = await runCli(['run', 'hello.dot', '--json', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.stderr).toContain('Completed at exit');
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(dir, 'hello.txt'), 'utf8')).toBe('hi\n');
    expect(readFileSync(path.join(dir, 'run', 'write', 'response.md'), 'utf8')).toBe('Wrote hello.txt.');
    const kinds = events(result.stdout).map((e) => e.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['agent.tool_call_start', 'agent.tool_call_end', 'agent.usage']),
    );
    const complete = events(result.stdout).find((e) => e.kind === 'node.complete' && e.node_id === 'write');
    expect(complete?.data['usage']).toMatchObject({ calls: 2, input_tokens: 2000, output_tokens: 100 });
    const status = JSON.parse(readFileSync(path.join(dir, 'run', 'write', 'status.json'), 'utf8'));
    expect(status).toMatchObject({ outcome: 'success', usage: { calls: 2 } });
    // The second request carried the tool's result back to the model.
    expect(JSON.stringify(server.requests[1]?.body)).toContain('toolu_1');
  });

  it('refuses to start when a node needs a key that is not set, naming the variable and the node', async () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'hello.dot'), ONE_NODE);
    const result = await runCli(['run', 'hello.dot'], { cwd: dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ANTHROPIC_API_KEY (needed by node write)');
    expect(existsSync(path.join(dir, '.attractor-runs'))).toBe(false);
  });

  it('runs a pipeline with no LLM node with no key set at all (a real run, not a dry run)', async () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'tools.dot'),
      `digraph tools {
        start [shape=Mdiamond]; exit [shape=Msquare];
        touch [shape=parallelogram, tool_command="echo made > made.txt"];
        start -> touch -> exit;
      }`,
    );
    const result = await runCli(['run', 'tools.dot'], { cwd: dir, env: {} });
    expect(result.stderr + result.stdout).not.toContain('No LLM provider');
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(dir, 'made.txt'), 'utf8')).toBe('made\n');
  });
});

describe('cost budget', () => {
  it('pauses when --max-cost is spent, and attractor resume --max-cost finishes the run', async () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'two.dot'),
      `digraph two { start [shape=Mdiamond]; exit [shape=Msquare];
        a [prompt="first", llm_model="claude-sonnet-4-6"]; b [prompt="second", llm_model="claude-sonnet-4-6"];
        start -> a -> b -> exit; }`,
    );
    const server = await anthropic();
    // 100k input tokens of claude-sonnet-4-6 cost $0.30: the budget of $0.50 is spent by b's first call.
    const costly = { input_tokens: 100_000, output_tokens: 0 };
    server.enqueue(
      anthropicStreamReply({ content: [{ type: 'text', text: 'a done' }], usage: costly }),
      anthropicStreamReply({
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: 'b.txt', content: 'b\n' } },
        ],
        stop_reason: 'tool_use',
        usage: costly,
      }),
    );
    const env = { ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.origin };
    const paused = await runCli(['run', 'two.dot', '--logs-dir', 'run', '--max-cost', '0.5'], {
      cwd: dir,
      env,
    });
    expect(paused.code).toBe(1);
    expect(paused.stderr).toContain('over its budget of $0.5000');
    expect(paused.stderr).toContain('attractor resume "run" --max-cost');
    const checkpoint = JSON.parse(readFileSync(path.join(dir, 'run', 'checkpoint.json'), 'utf8'));
    expect(checkpoint).toMatchObject({
      status: 'paused',
      current_node: 'b',
      completed_nodes: ['start', 'a'],
    });
    expect(checkpoint.usage.cost_usd).toBeCloseTo(0.6);

    // Without more budget, a resume refuses to start rather than spend again.
    const refused = await runCli(['resume', 'run', '--max-cost', '0.5'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('has already cost $0.6000');

    server.enqueue(
      anthropicStreamReply({
        content: [
          { type: 'tool_use', id: 'toolu_2', name: 'write_file', input: { path: 'b.txt', content: 'b\n' } },
        ],
        stop_reason: 'tool_use',
        usage,
      }),
      anthropicStreamReply({ content: [{ type: 'text', text: 'b done' }], usage }),
    );
    // From another directory: the resume works where the run worked (manifest.json keeps the workdir).
    const resumed = await runCli(['resume', path.join(dir, 'run'), '--json', '--max-cost', '5'], {
      cwd: workspace(),
      env,
    });
    expect(resumed.stderr).toContain('Completed at exit');
    expect(resumed.code).toBe(0);
    expect(readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    const finalize = events(resumed.stdout).find((e) => e.kind === 'pipeline.finalize');
    expect(finalize?.data['usage']).toMatchObject({ calls: 4 });
  });
});

describe('model plan and defaults', () => {
  it('--verbose prints which model each node will use before running', async () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'p.dot'),
      `digraph p { start [shape=Mdiamond]; exit [shape=Msquare]; a [prompt="x"]; b [prompt="y", llm_model="gpt-5.2"];
        start -> a -> b -> exit; }`,
    );
    // No OpenAI key: the run is refused, but the plan is printed first.
    const result = await runCli(['run', 'p.dot', '--verbose'], { cwd: dir, env: { GEMINI_API_KEY: 'g' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'a: agent model gemini-2.5-pro via gemini (gemini’s balanced default, the first provider with a key; name another with --model)',
    );
    expect(result.stderr).toContain('b: agent model gpt-5.2 via openai');
    expect(result.stderr).toContain('OPENAI_API_KEY (needed by node b)');
  });

  it('a dry run notes once that --model applies to real runs', async () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'hello.dot'), ONE_NODE);
    const result = await runCli(['run', 'hello.dot', '--dry-run', '--model', 'gpt-5.2'], {
      cwd: dir,
      env: {},
    });
    expect(result.code).toBe(0);
    expect(result.stderr.match(/to real runs/g)).toHaveLength(1);
    expect(result.stderr).toContain(
      'attractor: --model applies to real runs; this dry run simulates every model call.',
    );
  });
});

describe('llm_decide routing in a real run', () => {
  it('asks the graph router_model through the client and follows its choice', async () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'route.dot'),
      `digraph route { router_model="claude-haiku-4-5"; goal="pick the careful path"
        start [shape=Mdiamond]; exit [shape=Msquare];
        triage [shape=parallelogram, tool_command="echo triaged"];
        quick [shape=parallelogram, tool_command="echo quick > path.txt"];
        careful [shape=parallelogram, tool_command="echo careful > path.txt"];
        start -> triage; triage -> quick [llm_decide=true]; triage -> careful [llm_decide=true];
        quick -> exit; careful -> exit; }`,
    );
    const server = await anthropic();
    server.enqueue(
      anthropicJsonReply({
        content: [{ type: 'text', text: 'careful' }],
        usage: { input_tokens: 200, output_tokens: 2 },
      }),
    );
    const env = {
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: server.origin,
      PATH: process.env['PATH'] ?? '',
    };
    const result = await runCli(['run', 'route.dot', '--json', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(dir, 'path.txt'), 'utf8')).toBe('careful\n');
    expect(server.requests[0]?.body).toMatchObject({ model: 'claude-haiku-4-5' });
    const decision = events(result.stdout).find((e) => e.kind === 'router.decision');
    expect(decision).toMatchObject({ node_id: 'triage', data: { choice: 'careful' } });
    const finalize = events(result.stdout).find((e) => e.kind === 'pipeline.finalize');
    expect(finalize?.data['usage']).toMatchObject({ calls: 1, input_tokens: 200 });
  });
});
