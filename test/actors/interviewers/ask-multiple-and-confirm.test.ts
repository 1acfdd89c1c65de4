import { describe, expect, it } from 'vitest';
import { humanGateQuestion } from '../../../src/actors/handlers/human-gate-question.js';
import { askMultiple } from '../../../src/actors/interviewers/ask-multiple.js';
import { AutoApproveInterviewer } from '../../../src/actors/interviewers/auto-approve.js';
import { CallbackInterviewer } from '../../../src/actors/interviewers/callback.js';
import { confirm } from '../../../src/actors/interviewers/confirm.js';
import type { Answer, Interviewer, Question } from '../../../src/actors/interviewers/interviewer.js';
import { QueueInterviewer } from '../../../src/actors/interviewers/queue.js';
import { RecordingInterviewer } from '../../../src/actors/interviewers/recording.js';
import { loadPipeline } from '../../../src/compiler/compile.js';

const signal = new AbortController().signal;
const question = (stage: string): Question => ({
  text: `${stage}?`,
  type: 'multiple_choice',
  options: [
    { key: 'A', label: 'Alpha' },
    { key: 'B', label: 'Beta' },
  ],
  stage,
});

describe('askMultiple', () => {
  it('asks one by one, in order, when the interviewer has no form of its own', async () => {
    const asked: string[] = [];
    const interviewer = new CallbackInterviewer((q) => {
      asked.push(q.stage);
      return { selected: q.options[asked.length % 2] } as Answer;
    });
    const answers = await askMultiple(interviewer, [question('one'), question('two')], signal);
    expect(asked).toEqual(['one', 'two']);
    expect(answers.map((a) => a.selected?.key)).toEqual(['B', 'A']);
  });

  it("uses the interviewer's own askMultiple when it has one", async () => {
    const interviewer: Interviewer = {
      ask: async () => {
        throw new Error('should not be asked one by one');
      },
      askMultiple: async (qs) => qs.map((q) => ({ text: `form:${q.stage}` })),
    };
    expect(await askMultiple(interviewer, [question('a'), question('b')], signal)).toEqual([
      { text: 'form:a' },
      { text: 'form:b' },
    ]);
  });
});

describe('confirm', () => {
  it.each([
    { name: 'auto-approve says yes', interviewer: new AutoApproveInterviewer(), expected: true },
    { name: 'a queued "N" is no', interviewer: new QueueInterviewer(['N']), expected: false },
    { name: 'a queued "yes" is yes', interviewer: new QueueInterviewer(['yes']), expected: true },
  ])('$name', async ({ interviewer, expected }) => {
    expect(await confirm(interviewer, 'Re-run the deploy?', signal, 'deploy')).toBe(expected);
  });

  it('asks a confirmation question that recorders see, with its stage', async () => {
    const recording = new RecordingInterviewer(new AutoApproveInterviewer());
    await confirm(recording, 'Re-run?', signal, 'deploy');
    expect(recording.records[0]?.question).toMatchObject({
      text: 'Re-run?',
      type: 'confirmation',
      stage: 'deploy',
    });
  });
});

describe('question metadata', () => {
  it("a gate's extra attributes reach the interviewer as metadata", () => {
    const { graph } = loadPipeline(`digraph g {
      start [shape=Mdiamond]
      gate [shape=hexagon, label="Ship?", ui_hint="release train"]
      exit [shape=Msquare]
      start -> gate -> exit [label="Yes"]
    }`);
    const gate = graph.nodes.find((n) => n.id === 'gate');
    if (!gate) throw new Error('no gate');
    expect(humanGateQuestion(gate, graph).metadata).toEqual({ ui_hint: 'release train' });
  });
});
