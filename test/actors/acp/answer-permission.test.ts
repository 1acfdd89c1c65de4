import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { answerPermission, parsePermissionPolicy } from '../../../src/actors/acp/answer-permission.js';
import { AutoApproveInterviewer } from '../../../src/actors/interviewers/auto-approve.js';
import type { Question } from '../../../src/actors/interviewers/interviewer.js';
import { QueueInterviewer } from '../../../src/actors/interviewers/queue.js';

const request: RequestPermissionRequest = {
  sessionId: 's',
  toolCall: { toolCallId: 't', title: 'rm -rf build', rawInput: { command: 'rm -rf build' } },
  options: [
    { optionId: 'never', name: 'Reject always', kind: 'reject_always' },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
    { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
  ],
};
const signal = new AbortController().signal;
const chosen = async (...args: Parameters<typeof answerPermission>) => {
  const { outcome } = await answerPermission(...args);
  return outcome.outcome === 'selected' ? outcome.optionId : 'cancelled';
};

describe('answerPermission', () => {
  it.each([
    ['allow', 'yes'],
    ['deny', 'no'],
  ] as const)('policy %s picks the once-only option', async (policy, id) => {
    expect(await chosen(request, { policy, stage: 'n', signal })).toBe(id);
  });

  it('ask: the interviewer sees the agent options (allow first) and its answer is the choice', async () => {
    const asked: Question[] = [];
    const interviewer = new QueueInterviewer({ work: ['Reject always'] });
    const spy = {
      ask: (q: Question) => {
        asked.push(q);
        return interviewer.ask(q);
      },
    };
    expect(await chosen(request, { policy: 'ask', interviewer: spy, stage: 'work', signal })).toBe('never');
    expect(asked[0]?.options.map((o) => o.label)).toEqual([
      'Always allow',
      'Allow',
      'Reject always',
      'Reject',
    ]);
    expect(asked[0]?.text).toContain('rm -rf build');
    expect(asked[0]?.stage).toBe('work');
  });

  it('ask with an auto-approving interviewer allows; with none, or no matching option, cancels', async () => {
    expect(
      await chosen(request, { policy: 'ask', interviewer: new AutoApproveInterviewer(), stage: 'n', signal }),
    ).toBe('always');
    expect(await chosen(request, { policy: 'ask', stage: 'n', signal })).toBe('cancelled');
    expect(await chosen({ ...request, options: [] }, { policy: 'allow', stage: 'n', signal })).toBe(
      'cancelled',
    );
  });

  it.each([
    [undefined, 'ask'],
    ['Allow', 'allow'],
    ['deny', 'deny'],
    ['sometimes', undefined],
  ])('parsePermissionPolicy(%s) = %s', (value, policy) => {
    expect(parsePermissionPolicy(value)).toBe(policy);
  });
});
