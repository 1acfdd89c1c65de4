import { describe, expect, it } from 'vitest';
import { QueueInterviewer } from '../../../src/actors/interviewers/queue.js';
import { RecordingInterviewer } from '../../../src/actors/interviewers/recording.js';
import { choice, signal, yesNo } from './fixtures.js';

describe('RecordingInterviewer', () => {
  it('records each question with its answer, in order, and returns the inner answers', async () => {
    const recorder = new RecordingInterviewer(new QueueInterviewer(['R', 'y']));
    expect((await recorder.ask(choice, signal())).selected?.key).toBe('R');
    expect((await recorder.ask(yesNo, signal())).selected?.key).toBe('Y');
    expect(recorder.records.map((r) => [r.question.text, r.answer.selected?.label])).toEqual([
      ['Ship it?', '[R] Revise'],
      ['Proceed?', 'Yes'],
    ]);
  });

  it('records nothing when the inner interviewer throws', async () => {
    const recorder = new RecordingInterviewer({
      ask: async () => {
        throw new Error('boom');
      },
    });
    await expect(recorder.ask(choice, signal())).rejects.toThrow('boom');
    expect(recorder.records).toEqual([]);
  });

  it('returns a copy of its records and forwards inform', () => {
    const informed: string[] = [];
    const recorder = new RecordingInterviewer({ ask: async () => ({}), inform: (m) => informed.push(m) });
    recorder.records.push({ question: choice, answer: {} });
    expect(recorder.records).toEqual([]);
    recorder.inform('note', 'gate');
    expect(informed).toEqual(['note']);
  });
});
