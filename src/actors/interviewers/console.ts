import { stripAcceleratorPrefix } from '../../compiler/accelerator.js';
import { printableText } from '../../shared/printable-text.js';
import { BoundedLineReader, type ReadLine } from './bounded-line-reader.js';
import { acceptsText, checkAnswer } from './check-answer.js';
import type { Answer, Interviewer, Question } from './interviewer.js';
import { resolveScriptedAnswer } from './resolve-scripted-answer.js';

export interface ConsoleInterviewerOptions {
  /** Default `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Default `process.stdout`. */
  output?: NodeJS.WritableStream;
  /**
   * The answer when the input ends before one is typed; default SKIPPED (Ctrl-D on a terminal). A
   * closed pipe can throw instead (nobody is there to answer), or wait, until the signal aborts, for
   * an answer from elsewhere (a gate's timeout and default).
   */
  onInputEnd?: (question: Question, signal: AbortSignal) => Answer | Promise<Answer>;
}

type LineResult = ReadLine | { kind: 'eof' } | { kind: 'timeout' };

/**
 * Asks on a plain terminal when the TUI is off (A.6 "Console"): prints `[?] question` and the options as
 * `  [K] label`, then reads a line. An answer naming no option asks again, saying why (free text only
 * for a question that accepts it); an empty one takes the default choice when there is one. Times out with a TIMEOUT answer, answers SKIPPED at end of input, and rejects with
 * the signal's reason when aborted. One line reader lives for the interviewer's lifetime, so lines typed
 * ahead are not lost between questions; call `close()` when done.
 */
export class ConsoleInterviewer implements Interviewer {
  readonly #input: NodeJS.ReadableStream;
  readonly #output: NodeJS.WritableStream;
  readonly #onInputEnd: (question: Question, signal: AbortSignal) => Answer | Promise<Answer>;
  #reader: BoundedLineReader | undefined;
  readonly #lines: ReadLine[] = [];
  readonly #waiters: Array<(result: LineResult) => void> = [];
  #ended = false;
  #asking = 0;

  constructor(options: ConsoleInterviewerOptions = {}) {
    this.#input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#onInputEnd = options.onInputEnd ?? (() => ({ value: 'skipped' }));
  }

  async ask(question: Question, signal: AbortSignal): Promise<Answer> {
    signal.throwIfAborted();
    this.#start();
    // Input is read only while a question waits: between questions (and after one answered elsewhere)
    // no pending read keeps the process alive, and lines typed ahead wait in the pipe.
    this.#asking += 1;
    this.#reader?.resume();
    try {
      return await this.#askOnce(question, signal);
    } finally {
      this.#asking -= 1;
      if (this.#asking === 0) this.#reader?.pause();
    }
  }

  async #askOnce(question: Question, signal: AbortSignal): Promise<Answer> {
    const deadline = question.timeoutMs === undefined ? undefined : Date.now() + question.timeoutMs;
    this.#write(`[?] ${printableText(question.text)}\n`);
    for (const option of question.options) {
      this.#write(
        `  [${printableText(option.key)}] ${printableText(stripAcceleratorPrefix(option.label))}\n`,
      );
    }
    for (;;) {
      this.#write(this.#prompt(question));
      const result = await this.#nextLine(signal, deadline);
      if (result.kind === 'timeout') {
        this.#write('\n(no answer: timed out)\n');
        return { value: 'timeout' };
      }
      if (result.kind === 'eof') {
        this.#write('\n');
        return this.#onInputEnd(question, signal);
      }
      if (result.kind === 'too_long') {
        this.#write(`Invalid choice: the line is longer than ${result.maxChars} characters.\n`);
        continue;
      }
      const line = result.line.trim();
      const typed = line === '' ? (question.defaultChoice ?? '') : line;
      if (typed === '') continue;
      const answer = question.type === 'freeform' ? { text: typed } : resolveScriptedAnswer(question, typed);
      const checked = checkAnswer(question, answer);
      if (checked.ok) return answer;
      this.#write(`Invalid choice: ${checked.reason}\n`);
    }
  }

  inform(message: string, stage: string): void {
    this.#write(`[i] ${stage}: ${printableText(message)}\n`);
  }

  /** Stop reading the input stream. */
  close(): void {
    this.#reader?.close();
  }

  #prompt(question: Question): string {
    if (question.type === 'freeform') return '> ';
    const yesNo = question.type === 'yes_no' || question.type === 'confirmation' ? ' (y/n)' : '';
    const text = acceptsText(question) ? ' or type an answer' : '';
    const fallback = question.defaultChoice ? ` [${question.defaultChoice}]` : '';
    return `Select${yesNo}${text}${fallback}: `;
  }

  #write(text: string): void {
    this.#output.write(text);
  }

  #start(): void {
    if (this.#reader) return;
    this.#reader = new BoundedLineReader(
      this.#input,
      (line) => {
        const waiter = this.#waiters.shift();
        if (waiter) waiter(line);
        else this.#lines.push(line);
      },
      () => {
        this.#ended = true;
        for (const waiter of this.#waiters.splice(0)) waiter({ kind: 'eof' });
      },
    );
  }

  #nextLine(signal: AbortSignal, deadline: number | undefined): Promise<LineResult> {
    const buffered = this.#lines.shift();
    if (buffered !== undefined) return Promise.resolve(buffered);
    if (this.#ended) return Promise.resolve({ kind: 'eof' });
    return new Promise<LineResult>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
      };
      const waiter = (result: LineResult) => {
        settle();
        resolve(result);
      };
      const onAbort = () => {
        settle();
        reject(signal.reason);
      };
      this.#waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      if (deadline !== undefined) {
        timer = setTimeout(() => waiter({ kind: 'timeout' }), Math.max(0, deadline - Date.now()));
      }
    });
  }
}
