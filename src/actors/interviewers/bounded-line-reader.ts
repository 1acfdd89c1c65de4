import { StringDecoder } from 'node:string_decoder';

/** What a line reader hands on: a line, a line too long to keep, or the end of the input. */
export type ReadLine = { kind: 'line'; line: string } | { kind: 'too_long'; maxChars: number };

/** The longest answer line kept: far past anything typed or scripted; a longer one is refused, not held. */
export const MAX_ANSWER_LINE_CHARS = 64 * 1024;

/**
 * Splits a stream into lines as readline does (`\n`, `\r\n`), but never holds more than `maxChars` of
 * one line: the rest of a longer one is thrown away as it arrives and the line is reported as
 * `too_long`. An endless line on stdin (a runaway script, `yes | tr -d '\n'`) so costs a bounded buffer
 * instead of growing until the process dies.
 */
export class BoundedLineReader {
  readonly #input: NodeJS.ReadableStream;
  readonly #maxChars: number;
  readonly #decoder = new StringDecoder('utf8');
  #partial = '';
  #overflowed = false;
  #closed = false;
  readonly #onLine: (line: ReadLine) => void;
  readonly #onClose: () => void;
  readonly #onData = (chunk: Buffer | string): void =>
    this.#take(typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
  readonly #onEnd = (): void => this.#finish();

  constructor(
    input: NodeJS.ReadableStream,
    onLine: (line: ReadLine) => void,
    onClose: () => void,
    maxChars = MAX_ANSWER_LINE_CHARS,
  ) {
    this.#input = input;
    this.#onLine = onLine;
    this.#onClose = onClose;
    this.#maxChars = maxChars;
    input.on('data', this.#onData);
    input.on('end', this.#onEnd);
    input.on('close', this.#onEnd);
  }

  pause(): void {
    this.#input.pause();
  }

  resume(): void {
    this.#input.resume();
  }

  close(): void {
    if (this.#closed) return;
    this.#input.off('data', this.#onData);
    this.#input.pause();
    this.#finish();
  }

  #take(text: string): void {
    let rest = text;
    for (let newline = rest.indexOf('\n'); newline !== -1; newline = rest.indexOf('\n')) {
      this.#append(rest.slice(0, newline));
      rest = rest.slice(newline + 1);
      this.#emitLine();
    }
    this.#append(rest);
  }

  #append(text: string): void {
    if (this.#overflowed) return;
    if (this.#partial.length + text.length > this.#maxChars) {
      this.#overflowed = true;
      this.#partial = '';
      return;
    }
    this.#partial += text;
  }

  #emitLine(): void {
    const line = this.#partial.endsWith('\r') ? this.#partial.slice(0, -1) : this.#partial;
    const overflowed = this.#overflowed;
    this.#partial = '';
    this.#overflowed = false;
    this.#onLine(overflowed ? { kind: 'too_long', maxChars: this.#maxChars } : { kind: 'line', line });
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onEnd);
    if (this.#partial !== '' || this.#overflowed) this.#emitLine();
    this.#onClose();
  }
}
