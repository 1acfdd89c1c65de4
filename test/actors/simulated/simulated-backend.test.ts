import { describe, expect, it } from 'vitest';
import { createSimulatedBackend } from '../../../src/actors/simulated/simulated-backend.js';
import { makeNode } from '../helpers/graph-builders.js';

const request = (prompt: string, signal = new AbortController().signal) => ({
  node: makeNode('plan'),
  prompt,
  contextSummary: '',
  fidelity: 'compact' as const,
  stageDir: '/nonexistent',
  signal,
  emit: () => {},
});

describe('createSimulatedBackend', () => {
  it.each([
    ['Write a plan\nwith details', '[simulated] plan: Write a plan'],
    ['  \n  leading blank', '[simulated] plan: leading blank'],
    ['', '[simulated] plan: '],
  ])('describes the node for prompt %j', async (prompt, response) => {
    const result = await createSimulatedBackend().run(request(prompt));
    expect(result.response).toBe(response);
    expect(result.outcome?.status).toBe('success');
  });

  it('is deterministic', async () => {
    const backend = createSimulatedBackend();
    expect(await backend.run(request('x'))).toEqual(await backend.run(request('x')));
    expect(backend.name).toBe('simulated');
  });

  it('refuses to run once aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(createSimulatedBackend().run(request('x', controller.signal))).rejects.toThrow('stop');
  });
});
