import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolHandler } from '../../../src/actors/handlers/tool.js';
import type { GraphAttrs, NodeAttrs } from '../../../src/compiler/ir.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeGraph, makeNode } from '../helpers/graph-builders.js';

const env = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  OPENAI_API_KEY: 'sk-secret',
  GH_TOKEN: 'gh-secret',
  NPM_TOKEN: 'npm-secret',
  PLAIN: 'visible',
};

describe('tool handler', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function runNode(
    attrs: NodeAttrs,
    graphAttrs: GraphAttrs = {},
    signal?: AbortSignal,
    context: Record<string, unknown> = {},
  ) {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const node = makeNode('check', { shape: 'parallelogram', ...attrs });
    const input = makeInput({
      node,
      graph: makeGraph({ nodes: [node], attrs: graphAttrs }),
      runDir,
      services: createFakeServices(),
      context,
      ...(signal ? { signal } : {}),
      extra: { workingDir: runDir },
    });
    const outcome = await createToolHandler({ env, killGraceMs: 300 })(input);
    return { outcome, runDir, stageDir: input.stageDir };
  }

  it.each([
    ['echo hello', 'success', 0, 'hello'],
    ['printf "a\\nb\\n\\n"', 'success', 0, 'a\nb'],
    ['echo out; echo bad >&2; exit 4', 'fail', 4, 'out'],
  ])('%s → %s (exit %d)', async (command, status, exitCode, output) => {
    const { outcome } = await runNode({ tool_command: command });
    expect(outcome.status).toBe(status);
    expect(outcome.context_updates).toMatchObject({ 'tool.exit_code': exitCode, 'tool.output': output });
  });

  describe('the goal and pipeline parameters reach the command as environment variables, never as shell syntax', () => {
    // Each value, were it pasted into the command, would run `touch pwned` in the working directory.
    const hostile = "'; touch pwned; echo '";
    it.each([
      { name: '$goal', graphAttrs: { goal: hostile }, context: {}, command: 'echo goal=$goal' },
      {
        name: 'a declared $feature',
        graphAttrs: { vars: 'feature' },
        context: { 'vars.feature': hostile },
        command: 'echo goal=$feature',
      },
      {
        name: 'a declared parameter in double quotes',
        graphAttrs: { vars: 'feature' },
        context: { 'vars.feature': `$(touch pwned)${hostile}` },
        command: 'echo "goal=$feature"',
      },
    ])('$name', async ({ graphAttrs, context, command }) => {
      const { outcome, runDir } = await runNode({ tool_command: command }, graphAttrs, undefined, context);
      expect(outcome.status).toBe('success');
      expect(existsSync(join(runDir, 'pwned'))).toBe(false);
      expect(String(outcome.context_updates?.['tool.output'])).toContain("touch pwned; echo '");
    });

    it('an undeclared vars.<name> in the context is not passed; a declared one overrides the environment', async () => {
      const { outcome } = await runNode(
        { tool_command: 'echo "[$PLAIN] [$other] [$goal]"' },
        { vars: 'PLAIN', goal: 'Ship it' },
        undefined,
        { 'vars.PLAIN': 'declared', 'vars.other': 'not declared' },
      );
      expect(outcome.context_updates?.['tool.output']).toBe('[declared] [] [Ship it]');
    });
  });

  it('timeout=0 means no timeout, as for every other node type', async () => {
    const { outcome } = await runNode({ tool_command: 'sleep 0.2; echo done', timeout: 0 });
    expect(outcome).toMatchObject({ status: 'success', context_updates: { 'tool.output': 'done' } });
  });

  it('reports success with the command in the notes and the last line', async () => {
    const { outcome } = await runNode({ tool_command: 'echo one; echo two' });
    expect(outcome).toMatchObject({
      status: 'success',
      notes: 'Tool completed: echo one; echo two',
      context_updates: { 'tool.last_line': 'two' },
    });
  });

  it('puts the exit code and the end of stderr in failure_reason', async () => {
    const { outcome } = await runNode({ tool_command: 'echo "compile error in x.ts" >&2; exit 2' });
    expect(outcome.failure_reason).toBe('exit code 2: compile error in x.ts');
  });

  it('fails without a tool_command', async () => {
    const { outcome } = await runNode({ tool_command: '  ' });
    expect(outcome).toEqual({ status: 'fail', failure_reason: 'No tool_command specified' });
  });

  it('fails with "timed out after N ms" when the node timeout passes', async () => {
    const { outcome } = await runNode({ tool_command: 'sleep 30', timeout: 200 });
    expect(outcome).toMatchObject({ status: 'fail', failure_reason: 'timed out after 200 ms' });
  });

  it('fails as cancelled when the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { outcome } = await runNode({ tool_command: 'sleep 30' }, {}, controller.signal);
    expect(outcome).toMatchObject({ status: 'fail', failure_reason: 'cancelled' });
  });

  it('fails naming the working directory when it does not exist (not "spawn /bin/sh ENOENT")', async () => {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const node = makeNode('check', { shape: 'parallelogram', tool_command: 'echo hi' });
    const missing = join(runDir, 'no-such-dir');
    const input = makeInput({
      node,
      graph: makeGraph({ nodes: [node] }),
      runDir,
      services: createFakeServices(),
      extra: { workingDir: missing },
    });
    const outcome = await createToolHandler({ env })(input);
    expect(outcome).toMatchObject({
      status: 'fail',
      failure_reason: `working directory ${missing} does not exist`,
    });
  });

  it('writes stdout.log and stderr.log to the stage directory and runs in the working directory', async () => {
    const { stageDir, runDir } = await runNode({ tool_command: 'pwd; echo err >&2' });
    expect(readFileSync(join(stageDir, 'stdout.log'), 'utf8')).toBe(`${runDir}\n`);
    expect(readFileSync(join(stageDir, 'stderr.log'), 'utf8')).toBe('err\n');
  });

  it.each<[string, NodeAttrs, GraphAttrs, string]>([
    ['filters secrets', {}, {}, '[][][][visible]'],
    [
      'node env_passthrough keeps listed names',
      { env_passthrough: 'GH_TOKEN' },
      {},
      '[][[redacted GH_TOKEN]][][visible]',
    ],
    [
      'graph env_passthrough keeps listed names',
      {},
      { env_passthrough: 'NPM_TOKEN' },
      '[][][[redacted NPM_TOKEN]][visible]',
    ],
    [
      'node and graph lists add up',
      { env_passthrough: 'GH_TOKEN' },
      { env_passthrough: 'NPM_TOKEN,OPENAI_API_KEY' },
      '[[redacted OPENAI_API_KEY]][[redacted GH_TOKEN]][[redacted NPM_TOKEN]][visible]',
    ],
    // A secret the command got is printed as its mark: it reached the command, and not the record.
  ])('environment: %s', async (_name, attrs, graphAttrs, expected) => {
    const { outcome } = await runNode(
      { tool_command: 'echo "[$OPENAI_API_KEY][$GH_TOKEN][$NPM_TOKEN][$PLAIN]"', ...attrs },
      graphAttrs,
    );
    expect(outcome.context_updates?.['tool.output']).toBe(expected);
  });
});
