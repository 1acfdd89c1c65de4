import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../../src/agent/tools/parse-patch.js';

describe('parsePatch', () => {
  it('parses every operation, hints and End of File', () => {
    const ops = parsePatch(
      [
        '```',
        '*** Begin Patch',
        '*** Add File: a.txt',
        '+1',
        '+',
        '*** Delete File: b.txt',
        '*** Update File: c.txt',
        '*** Move to: d.txt',
        '@@ class C:',
        ' ctx',
        '-old',
        '+new',
        '',
        '@@',
        ' tail',
        '+more',
        '*** End of File',
        '*** End Patch',
        '```',
      ].join('\r\n'),
    );
    expect(ops).toEqual([
      { kind: 'add', path: 'a.txt', content: '1\n\n' },
      { kind: 'delete', path: 'b.txt' },
      {
        kind: 'update',
        path: 'c.txt',
        moveTo: 'd.txt',
        hunks: [
          {
            hint: 'class C:',
            endOfFile: false,
            lines: [
              { kind: ' ', text: 'ctx' },
              { kind: '-', text: 'old' },
              { kind: '+', text: 'new' },
            ],
          },
          {
            hint: '',
            endOfFile: true,
            lines: [
              { kind: ' ', text: 'tail' },
              { kind: '+', text: 'more' },
            ],
          },
        ],
      },
    ]);
  });

  it('a bare empty line inside a hunk is empty context; trailing ones are not', () => {
    const [op] = parsePatch('*** Begin Patch\n*** Update File: f\n a\n\n b\n\n\n*** End Patch');
    expect(op).toMatchObject({ hunks: [{ lines: [{ text: 'a' }, { kind: ' ', text: '' }, { text: 'b' }] }] });
  });

  it.each([
    ['*** Begin Patch\n*** Update File: f\n*** End Patch', /has no hunks/],
    [
      '*** Begin Patch\n*** Add File: f\nno plus\n*** End Patch',
      /line 3: every line of an added file must start with "\+"/,
    ],
    ['*** Begin Patch\n*** Update File: f\n@@\n?bad\n*** End Patch', /line 4: a hunk line must start with/],
    ['*** Begin Patch\n*** Add File: \n*** End Patch', /needs a path/],
  ])('rejects %j', (text, message) => {
    expect(() => parsePatch(text)).toThrow(message);
  });
});
