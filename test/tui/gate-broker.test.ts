import { expect, test } from 'vitest';
import type { Question } from '../../src/actors/interviewers/interviewer.js';
import { createGateBroker } from '../../src/tui/gate-broker.js';

const q = (stage: string): Question => ({
  text: `${stage}?`,
  type: 'yes_no',
  stage,
  options: [{ key: 'Y', label: 'Yes' }],
});

test('questions queue one at a time; answering shows the next; listeners hear each change', async () => {
  const broker = createGateBroker(() => 42);
  let changes = 0;
  broker.subscribe(() => changes++);
  const first = broker.ask(q('a'), new AbortController().signal);
  const second = broker.ask(q('b'), new AbortController().signal);
  expect(broker.current()).toMatchObject({ question: { stage: 'a' }, askedAt: 42 });
  broker.current()?.answer({ value: 'yes' });
  await expect(first).resolves.toEqual({ value: 'yes' });
  expect(broker.current()?.question.stage).toBe('b');
  broker.current()?.answer({ value: 'no' });
  await expect(second).resolves.toEqual({ value: 'no' });
  expect(broker.current()).toBeUndefined();
  expect(changes).toBe(4);
});

test('an aborted question leaves the queue and rejects with the reason', async () => {
  const broker = createGateBroker();
  const controller = new AbortController();
  const asking = broker.ask(q('a'), controller.signal);
  const gate = broker.current();
  controller.abort(new Error('timed out'));
  await expect(asking).rejects.toThrow('timed out');
  expect(broker.current()).toBeUndefined();
  gate?.answer({ value: 'yes' });
});
