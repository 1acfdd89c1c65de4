import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BoundedLineReader, type ReadLine } from '../../../src/actors/interviewers/bounded-line-reader.js';
import { ConsoleInterviewer } from '../../../src/actors/interviewers/console.js';
import { choice, signal } from './fixtures.js';

function read(chunks: (string | Buffer)[], maxChars = 8): { lines: ReadLine[]; closed: boolean } {
  const input = new PassThrough();
  const seen = { lines: [] as ReadLine[], closed: false };
  new BoundedLineReader(
    input,
    (line) => seen.lines.push(line),
    () => (seen.closed = true),
    maxChars,
  );
  for (const chunk of chunks) input.write(chunk);
  input.end();
  return seen;
}

describe('BoundedLineReader', () => {
  it.each([
    ['lines split across chunks', ['ab', 'c\nde\r', '\nf'], ['abc', 'de', 'f']],
    ['a UTF-8 character split across chunks', [Buffer.from([0xc3]), Buffer.from([0xa9, 0x0a])], ['é']],
    ['an empty line', ['\n'], ['']],
  ])('%s', async (_what, chunks, lines) => {
    const seen = read(chunks);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.lines).toEqual(lines.map((line) => ({ kind: 'line', line })));
    expect(seen.closed).toBe(true);
  });

  it('reports a line past the limit as too long, keeps none of it, and reads on', async () => {
    const seen = read(['12345', '67890', 'abc\nok\n', 'x'.repeat(20)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.lines).toEqual([
      { kind: 'too_long', maxChars: 8 },
      { kind: 'line', line: 'ok' },
      { kind: 'too_long', maxChars: 8 },
    ]);
  });
});

describe('a gate answered on stdin', () => {
  it('refuses an endless line (50 MB, no newline) without holding it, then takes the next answer', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const interviewer = new ConsoleInterviewer({ input, output });
    try {
      const answer = interviewer.ask(choice, signal());
      const megabyte = 'a'.repeat(1024 * 1024);
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 50; i++) {
        input.write(megabyte);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const grown = process.memoryUsage().heapUsed - before;
      input.write('\nA\n');
      expect((await answer).selected?.key).toBe('A');
      expect(printed).toContain('Invalid choice: the line is longer than 65536 characters.');
      expect(grown).toBeLessThan(30 * 1024 * 1024);
    } finally {
      interviewer.close();
    }
  });
});
