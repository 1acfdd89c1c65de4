import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleInterviewer } from '../../../src/actors/interviewers/console.js';
import { choice, freeform, signal, yesNo } from './fixtures.js';

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const interviewer = new ConsoleInterviewer({ input, output });
  return { input, interviewer, printed: () => printed };
}

describe('ConsoleInterviewer', () => {
  const open: ConsoleInterviewer[] = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const interviewer of open.splice(0)) interviewer.close();
  });
  const setup = () => {
    const t = terminal();
    open.push(t.interviewer);
    return t;
  };

  it('prints the question and options, then reads the choice', async () => {
    const { input, interviewer, printed } = setup();
    const answer = interviewer.ask(choice, signal());
    input.write('r\n');
    expect((await answer).selected?.target).toBe('fix');
    expect(printed()).toBe('[?] Ship it?\n  [A] Approve\n  [R] Revise\n  [S] Skip tests\nSelect: ');
  });

  it.each([
    ['y', 'go'],
    ['n', 'stop'],
    ['Yes', 'go'],
  ])('yes/no accepts %j', async (line, target) => {
    const { input, interviewer, printed } = setup();
    const answer = interviewer.ask(yesNo, signal());
    input.write(`${line}\n`);
    expect((await answer).selected?.target).toBe(target);
    expect(printed()).toContain('Select (y/n): ');
  });

  it('asks again after an answer naming no option, saying which options there are', async () => {
    const { input, interviewer, printed } = setup();
    const answer = interviewer.ask(choice, signal());
    input.write('looks fine\nA\n');
    expect((await answer).selected?.key).toBe('A');
    expect(printed()).toContain(
      'Invalid choice: "looks fine" is none of the options of gate gate: [A] Approve, [R] Revise, [S] Skip tests\nSelect: ',
    );
  });

  it('takes free text at a gate that names the option free text follows', async () => {
    const { input, interviewer, printed } = setup();
    const answer = interviewer.ask({ ...choice, textOption: choice.options[1]! }, signal());
    input.write('add tests first\n');
    expect(await answer).toEqual({ text: 'add tests first' });
    expect(printed()).toContain('Select or type an answer: ');
  });

  it('takes the default choice on an empty line', async () => {
    const { input, interviewer, printed } = setup();
    const answer = interviewer.ask({ ...choice, defaultChoice: 'S' }, signal());
    input.write('\n');
    expect((await answer).selected?.key).toBe('S');
    expect(printed()).toContain('Select [S]: ');
  });

  it('reads free text after a > prompt', async () => {
    const { input, interviewer, printed } = setup();
    const answer = interviewer.ask(freeform, signal());
    input.write('  because  \n');
    expect(await answer).toEqual({ text: 'because' });
    expect(printed().endsWith('> ')).toBe(true);
  });

  it('keeps lines typed ahead for the next question', async () => {
    const { input, interviewer } = setup();
    input.write('A\nR\n');
    expect((await interviewer.ask(choice, signal())).selected?.key).toBe('A');
    expect((await interviewer.ask(choice, signal())).selected?.key).toBe('R');
  });

  it('answers TIMEOUT when nobody answers in time', async () => {
    vi.useFakeTimers();
    const { interviewer, printed } = setup();
    let answer: unknown;
    void interviewer.ask({ ...choice, timeoutMs: 50 }, signal()).then((a) => {
      answer = a;
    });
    await vi.advanceTimersByTimeAsync(49);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toEqual({ value: 'timeout' });
    expect(printed()).toContain('timed out');
  });

  it('rejects with the reason when aborted', async () => {
    const { interviewer } = setup();
    const controller = new AbortController();
    const answer = interviewer.ask(choice, controller.signal);
    controller.abort(new Error('cancelled by user'));
    await expect(answer).rejects.toThrow('cancelled by user');
  });

  it('answers SKIPPED at end of input', async () => {
    const { input, interviewer } = setup();
    const answer = interviewer.ask(choice, signal());
    input.end();
    expect(await answer).toEqual({ value: 'skipped' });
  });

  it('prints inform messages', () => {
    const { interviewer, printed } = setup();
    interviewer.inform('waiting for review', 'gate');
    expect(printed()).toBe('[i] gate: waiting for review\n');
  });
});
