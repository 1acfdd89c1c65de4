/**
 * A real run through the CLI binary against a local Anthropic stand-in, exporting its trace to a local
 * OTLP/HTTP collector: the span tree (run → node → model call / tool call), the GenAI conventions'
 * names and attributes, token counts and cost equal to the run's own `pipeline.finalize`, and the
 * trace context reaching the tool command.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import {
  anthropicStreamReply,
  FAKE_ANTHROPIC_KEY,
  startFakeAnthropicServer,
} from '../helpers/fake-anthropic-server.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { tempDir } from '../helpers/temp-dir.js';

beforeAll(ensureDist, 180_000);

const PIPELINE = `digraph traced {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  plan [prompt="Say what the folder holds.", llm_model="claude-sonnet-4-6"]
  check [shape=parallelogram, tool_command="printf %s \\"$TRACEPARENT\\" > traceparent.txt"]
  start -> plan -> check -> exit
}
`;

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

function run(
  cwd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'run', '--no-tui', '--sandbox', 'off', ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: cwd, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

async function receiver(): Promise<OtlpReceiver> {
  const otlp = await startOtlpReceiver();
  closing.push(() => otlp.close());
  return otlp;
}

function finalizeOf(cwd: string): { usage: Record<string, number>; status: string } {
  const root = path.join(cwd, '.attractor-runs', 'traced');
  const [runId] = fs.readdirSync(root);
  const lines = fs
    .readFileSync(path.join(root, runId ?? '', 'events.jsonl'), 'utf8')
    .trim()
    .split('\n');
  const finalize = lines.map((line) => JSON.parse(line)).find((e) => e.kind === 'pipeline.finalize');
  return finalize.data;
}

const byName = (spans: ReceivedSpan[], name: string): ReceivedSpan[] => spans.filter((s) => s.name === name);
const one = (spans: ReceivedSpan[], name: string): ReceivedSpan => {
  const found = byName(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReceivedSpan;
};

async function agentRun(extra: string[] = []) {
  const fake = await startFakeAnthropicServer();
  closing.push(() => fake.close());
  fake.enqueue(
    anthropicStreamReply({
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'shell', input: { command: 'echo listed' } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 120, output_tokens: 15, cache_read_input_tokens: 40 },
    }),
    anthropicStreamReply({
      content: [{ type: 'text', text: 'It holds nothing yet.' }],
      usage: { input_tokens: 180, output_tokens: 9 },
    }),
  );
  const otlp = await receiver();
  const cwd = tempDir();
  fs.writeFileSync(path.join(cwd, 'traced.dot'), PIPELINE);
  const result = await run(cwd, ['traced.dot', ...extra], {
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: fake.origin,
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin,
  });
  return { result, otlp, cwd };
}

describe('a traced run', () => {
  it('exports one trace: run → node → model call / tool call, by the GenAI conventions', async () => {
    const { result, otlp, cwd } = await agentRun();
    expect(result.out).toContain('Completed at exit');
    expect(result.code).toBe(0);
    const spans = otlp.spans;
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(otlp.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
    expect(spans[0]?.resource['service.name']).toBe('attractor');

    const root = one(spans, 'invoke_workflow traced');
    expect(root.parentSpanId ?? '').toBe('');
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'traced',
      'attractor.run.status': 'completed',
      'attractor.run.quality': 'clean',
    });
    const agent = one(spans, 'invoke_agent plan');
    expect(agent.parentSpanId).toBe(root.spanId);
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'plan',
      'attractor.node.id': 'plan',
      'attractor.node.outcome': 'success',
      'attractor.node.route': 'check',
    });
    const check = one(spans, 'node check');
    expect(check.parentSpanId).toBe(root.spanId);
    expect(check.attributes).toMatchObject({
      'attractor.node.handler': 'tool',
      'attractor.node.route': 'exit',
    });

    const calls = byName(spans, 'chat claude-sonnet-4-6');
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.parentSpanId).toBe(agent.spanId);
      expect(call.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(call.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.request.model': 'claude-sonnet-4-6',
      });
      expect(call.endTimeUnixNano).toBeGreaterThanOrEqual(call.startTimeUnixNano);
    }
    const tool = one(spans, 'execute_tool shell');
    expect(tool.parentSpanId).toBe(agent.spanId);
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'shell',
      'gen_ai.tool.call.id': 'toolu_1',
      'gen_ai.tool.type': 'function',
    });
    // No content unless asked for.
    expect(JSON.stringify(spans)).not.toContain('Say what the folder holds.');
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBeUndefined();

    // Token counts and cost: the model calls add up to the run's own totals, and the run span says them.
    const finalize = finalizeOf(cwd);
    const sum = (key: string) => calls.reduce((total, call) => total + Number(call.attributes[key] ?? 0), 0);
    expect(sum('gen_ai.usage.input_tokens')).toBe(finalize.usage['input_tokens']);
    expect(sum('gen_ai.usage.output_tokens')).toBe(finalize.usage['output_tokens']);
    expect(sum('attractor.cost_usd')).toBeCloseTo(finalize.usage['cost_usd'] ?? Number.NaN, 10);
    expect(finalize.usage['cost_usd']).toBeGreaterThan(0);
    expect(root.attributes['gen_ai.usage.input_tokens']).toBe(finalize.usage['input_tokens']);
    expect(root.attributes['attractor.cost_usd']).toBeCloseTo(finalize.usage['cost_usd'] ?? Number.NaN, 10);
    expect(agent.attributes['gen_ai.usage.output_tokens']).toBe(finalize.usage['output_tokens']);

    // The tool command ran inside the check node's span.
    const traceparent = fs.readFileSync(path.join(cwd, 'traceparent.txt'), 'utf8');
    expect(traceparent).toBe(`00-${check.traceId}-${check.spanId}-01`);
  }, 90_000);

  it('carries prompts, responses and tool arguments only with --otel-content', async () => {
    const { result, otlp } = await agentRun(['--otel-content']);
    expect(result.code).toBe(0);
    const agent = one(otlp.spans, 'invoke_agent plan');
    expect(String(agent.attributes['gen_ai.input.messages'])).toContain('Say what the folder holds.');
    expect(JSON.parse(String(agent.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'It holds nothing yet.' }] },
    ]);
    const tool = one(otlp.spans, 'execute_tool shell');
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual({
      command: 'echo listed',
    });
    expect(String(tool.attributes['gen_ai.tool.call.result'])).toContain('listed');
  }, 90_000);

  it('traces a dry run too, and a collector that is down costs the run nothing but one line', async () => {
    const otlp = await receiver();
    const cwd = tempDir();
    fs.writeFileSync(path.join(cwd, 'traced.dot'), PIPELINE);
    const traced = await run(cwd, ['traced.dot', '--dry-run'], { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.origin });
    expect(traced.code).toBe(0);
    expect(one(otlp.spans, 'invoke_workflow traced').attributes['attractor.run.status']).toBe('completed');
    expect(byName(otlp.spans, 'invoke_agent plan')).toHaveLength(1);

    const down = await receiver();
    await down.close();
    const started = Date.now();
    const unreachable = await run(cwd, ['traced.dot', '--dry-run', '--otel'], {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${down.origin}/v1/traces`,
    });
    expect(unreachable.code).toBe(0);
    expect(unreachable.out).toContain('Completed at exit');
    expect(unreachable.out.match(/traces could not be exported/g)).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 90_000);
});
