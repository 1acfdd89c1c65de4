import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  CodergenBackend,
  CodergenRequest,
  CodergenResult,
} from '../../../src/actors/codergen-backend.js';
import type { HandlerInput } from '../../../src/actors/handler-types.js';
import { codergenHandler } from '../../../src/actors/handlers/codergen.js';
import { StatusFileError } from '../../../src/actors/status-file-error.js';
import type { NodeAttrs } from '../../../src/compiler/ir.js';
import { createFakeServices, makeInput, makeRunDir } from '../helpers/fake-services.js';
import { makeGraph, makeNode } from '../helpers/graph-builders.js';

function recordingBackend(
  reply: (request: CodergenRequest) => CodergenResult = () => ({ response: 'done' }),
): CodergenBackend & { requests: CodergenRequest[] } {
  const requests: CodergenRequest[] = [];
  return {
    name: 'recording',
    requests,
    async run(request) {
      requests.push(request);
      return reply(request);
    },
  };
}

describe('codergenHandler', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function setup(
    attrs: NodeAttrs,
    backend: CodergenBackend,
    extra: Partial<HandlerInput> = {},
    file?: string,
  ) {
    const { runDir, cleanup } = makeRunDir();
    cleanups.push(cleanup);
    const node = makeNode('plan', attrs);
    const graph = makeGraph({
      nodes: [node],
      attrs: { goal: 'Build it' },
      file: file?.replace('$RUN', runDir),
    });
    const input = makeInput({
      node,
      graph,
      runDir,
      services: createFakeServices({ backend }),
      context: { goal: 'Build it', feature: 'login' },
      extra,
    });
    return { input, runDir, stageDir: input.stageDir };
  }

  it.each<[string, NodeAttrs, string]>([
    ['prompt wins', { prompt: 'Plan {feature}', label: 'Label' }, 'Plan login'],
    ['label when no prompt', { label: 'Draft {feature}' }, 'Draft login'],
    ['label when prompt is empty', { prompt: '', label: 'L' }, 'L'],
    ['node id when neither', {}, 'plan'],
    [
      'unknown keys and JSON braces stay',
      { prompt: 'Use {"a": 1} and {missing}' },
      'Use {"a": 1} and {missing}',
    ],
  ])('prompt: %s', async (_name, attrs, expected) => {
    const backend = recordingBackend();
    const { input, stageDir } = setup(attrs, backend);
    await codergenHandler(input);
    expect(backend.requests[0]?.prompt).toBe(expected);
    expect(readFileSync(join(stageDir, 'prompt.md'), 'utf8')).toBe(expected);
  });

  it('passes node settings, fidelity summary and the signal to the backend', async () => {
    const backend = recordingBackend();
    const controller = new AbortController();
    const { input, stageDir } = setup(
      { prompt: 'p', llm_model: 'm1', llm_provider: 'openai', reasoning_effort: 'low' },
      backend,
      {
        signal: controller.signal,
        fidelity: 'summary:low',
        threadId: 't1',
        completedNodes: [{ id: 'start', status: 'success' }],
      },
    );
    await codergenHandler(input);
    const request = backend.requests[0]!;
    expect(request).toMatchObject({
      model: 'm1',
      provider: 'openai',
      reasoningEffort: 'low',
      fidelity: 'summary:low',
      threadId: 't1',
      stageDir,
      contextSummary: 'Goal: Build it\nCompleted stages: 1',
    });
    expect(request.signal).toBe(controller.signal);
  });

  it('writes response.md and status.json and sets last_stage / last_response (200 chars)', async () => {
    const long = 'r'.repeat(300);
    const { input, stageDir } = setup(
      { prompt: 'p' },
      recordingBackend(() => ({ response: long })),
    );
    const outcome = await codergenHandler(input);
    expect(outcome).toEqual({
      status: 'success',
      notes: 'Stage completed: plan',
      context_updates: { last_stage: 'plan', last_response: 'r'.repeat(200) },
    });
    expect(readFileSync(join(stageDir, 'response.md'), 'utf8')).toBe(long);
    expect(JSON.parse(readFileSync(join(stageDir, 'status.json'), 'utf8'))).toEqual({
      outcome: 'success',
      preferred_label: '',
      suggested_next_ids: [],
      context_updates: { last_stage: 'plan', last_response: 'r'.repeat(200) },
      notes: 'Stage completed: plan',
    });
  });

  it("uses the backend's outcome when it gives one, keeping its context updates", async () => {
    const backend = recordingBackend(() => ({
      response: 'needs work',
      outcome: { status: 'fail', failure_reason: 'tests fail', context_updates: { 'review.score': 3 } },
    }));
    const { input } = setup({ prompt: 'p' }, backend);
    const outcome = await codergenHandler(input);
    expect(outcome).toEqual({
      status: 'fail',
      failure_reason: 'tests fail',
      context_updates: { 'review.score': 3, last_stage: 'plan', last_response: 'needs work' },
    });
  });

  it('prefers a status.json an external agent wrote during the call', async () => {
    const backend = recordingBackend((request) => {
      writeFileSync(
        join(request.stageDir, 'status.json'),
        JSON.stringify({ outcome: 'PARTIAL_SUCCESS', preferred_next_label: 'revise', notes: 'agent says' }),
      );
      return { response: 'ok', outcome: { status: 'success' } };
    });
    const { input, stageDir } = setup({ prompt: 'p' }, backend);
    const outcome = await codergenHandler(input);
    expect(outcome).toMatchObject({
      status: 'partial_success',
      preferred_label: 'revise',
      notes: 'agent says',
    });
    expect(JSON.parse(readFileSync(join(stageDir, 'status.json'), 'utf8'))).toMatchObject({
      outcome: 'partial_success',
      preferred_label: 'revise',
    });
  });

  it('ignores a status.json left over from an earlier attempt', async () => {
    const { input, stageDir } = setup({ prompt: 'p' }, recordingBackend());
    writeFileSync(join(stageDir, 'status.json'), JSON.stringify({ outcome: 'fail' }));
    expect((await codergenHandler(input)).status).toBe('success');
  });

  it.each([
    ['not JSON', '{oops', /not JSON/],
    ['unknown outcome', JSON.stringify({ outcome: 'great' }), /outcome/],
    ['missing outcome', JSON.stringify({ notes: 'x' }), /outcome/],
  ])('a malformed external status.json (%s) is a clear StatusFileError', async (_name, content, message) => {
    const backend = recordingBackend((request) => {
      writeFileSync(join(request.stageDir, 'status.json'), content);
      return { response: 'ok' };
    });
    const { input } = setup({ prompt: 'p' }, backend);
    const error = await codergenHandler(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatusFileError);
    expect((error as StatusFileError).code).toBe('STATUS_FILE_INVALID');
    expect((error as Error).message).toMatch(/status\.json/);
    expect((error as Error).message).toMatch(message);
  });

  it.each<[boolean | undefined, string]>([
    [true, 'auto-status: handler completed without writing status'],
    [false, 'Stage completed: plan'],
    [undefined, 'Stage completed: plan'],
  ])('auto_status=%s with no outcome synthesizes SUCCESS with note %j', async (autoStatus, notes) => {
    const { input } = setup({ prompt: 'p', auto_status: autoStatus }, recordingBackend());
    expect(await codergenHandler(input)).toMatchObject({ status: 'success', notes });
  });

  it('loads an @file prompt the compiler left, relative to the DOT file', async () => {
    const backend = recordingBackend();
    const { input, runDir } = setup({ prompt: '@prompts/plan.md' }, backend, {}, '$RUN/pipeline.dot');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(runDir, 'prompts'));
    writeFileSync(join(runDir, 'prompts', 'plan.md'), 'From file: {feature}');
    await codergenHandler(input);
    expect(backend.requests[0]?.prompt).toBe('From file: login');
  });

  it('fails with the missing file named when an @file prompt does not exist', async () => {
    const backend = recordingBackend();
    const { input, runDir, stageDir } = setup(
      { prompt: '@prompts/nope.md' },
      backend,
      {},
      '$RUN/pipeline.dot',
    );
    const outcome = await codergenHandler(input);
    expect(outcome.status).toBe('fail');
    expect(outcome.failure_reason).toContain(
      `${join(runDir, 'prompts', 'nope.md')} cannot be used: no such file`,
    );
    expect(backend.requests).toHaveLength(0);
    expect(JSON.parse(readFileSync(join(stageDir, 'status.json'), 'utf8')).outcome).toBe('fail');
  });

  it('does not treat a prompt that merely starts with @ and has spaces as a file', async () => {
    const backend = recordingBackend();
    const { input } = setup({ prompt: '@team please review' }, backend);
    await codergenHandler(input);
    expect(backend.requests[0]?.prompt).toBe('@team please review');
  });

  it('lets a backend error propagate (the engine turns it into FAIL or a retry)', async () => {
    const backend: CodergenBackend = {
      name: 'broken',
      run: async () => {
        throw new Error('provider down');
      },
    };
    const { input, stageDir } = setup({ prompt: 'p' }, backend);
    await expect(codergenHandler(input)).rejects.toThrow('provider down');
    expect(existsSync(join(stageDir, 'prompt.md'))).toBe(true);
  });
});
