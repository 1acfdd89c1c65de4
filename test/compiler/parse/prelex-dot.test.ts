import { describe, expect, it } from 'vitest';
import { prelexDot } from '../../../src/compiler/parse/prelex-dot.js';

const lex = (source: string) => prelexDot(source, { maxNestingDepth: 100 });

describe('prelexDot rewrites what ts-graphviz cannot read', () => {
  it.each([
    ['concatenation', 'digraph { a [p="x" + "y"] }', 'digraph { a [p="xy"] }'],
    ['concatenation over lines', 'digraph { a [p="x"\n  +\n  "y" + "z"] }', 'digraph { a [p="xyz"] }'],
    ['a lone plus is left alone', 'digraph { a [p="x" + y] }', 'digraph { a [p="x" + y] }'],
    ['raw newline in a string', 'digraph { a [p="x\ny"] }', 'digraph { a [p="x\\ny"] }'],
    ['raw CRLF in a string', 'digraph { a [p="x\r\ny"] }', 'digraph { a [p="x\\ny"] }'],
    ['backslash-newline continuation', 'digraph { a [p="x\\\ny"] }', 'digraph { a [p="xy"] }'],
    ['escaped quote stays', 'digraph { a [p="x\\"+\\"y"] }', 'digraph { a [p="x\\"+\\"y"] }'],
    ['merged attribute lists', 'digraph { a [x=1][y=2] }', 'digraph { a [x=1  y=2] }'],
    ['merged lists with space', 'digraph { a [x=1] \n [y=2] }', 'digraph { a [x=1  \n  y=2] }'],
    ['dotted bare key', 'digraph { manager.actions=observe }', 'digraph { "manager.actions"=observe }'],
    ['dashed bare value', 'digraph { a [m=gpt-5.2] }', 'digraph { a [m="gpt-5.2"] }'],
    ['numbers stay bare', 'digraph { a [w=-1.5, t=.5, u=2.] }', 'digraph { a [w=-1.5, t=.5, u=2.] }'],
    ['arrows are not dashes', 'digraph { a->b--c }', 'digraph { a->b--c }'],
    ['comments blanked', 'digraph { a // x\n -> b /* y\nz */ }', 'digraph { a     \n -> b     \n     }'],
    ['hash comments blanked', '# pre\ndigraph { a }', '     \ndigraph { a }'],
    [
      'nothing inside strings',
      'digraph { a [p="// not [x][y] a.b \'+\'"] }',
      'digraph { a [p="// not [x][y] a.b \'+\'"] }',
    ],
    ['nothing inside HTML ids', 'digraph { a [l=<<i>x</i>\n>] }', 'digraph { a [l=<<i>x</i>\n>] }'],
    ['byte-order mark dropped', '\uFEFFdigraph { a }', 'digraph { a }'],
  ])('%s', (_name, source, expected) => {
    expect(lex(source).text).toBe(expected);
  });
});

describe('prelexDot keeps positions in the user text', () => {
  it('maps offsets after a multi-line string back to the source line and column', () => {
    const source = 'digraph {\n  a [p="one\ntwo\nthree"]\n  b\n}';
    const { text, map } = lex(source);
    expect(map.locateOutput(text.indexOf('b\n'))).toEqual({ line: 5, column: 3 });
    expect(map.locateOutput(text.indexOf('p='))).toEqual({ line: 2, column: 6 });
  });

  it('maps offsets after folded concatenations and quoted words', () => {
    const source = 'digraph {\n a [p="x"\n + "y", m=gpt-4.1] c\n}';
    const { text, map } = lex(source);
    expect(text).toContain('"xy"');
    expect(map.locateOutput(text.indexOf('m='))).toEqual({ line: 3, column: 9 });
    expect(map.locateOutput(text.indexOf('"gpt-4.1"'))).toEqual({ line: 3, column: 11 });
    expect(map.locateOutput(text.indexOf(' c') + 1)).toEqual({ line: 3, column: 20 });
  });

  it('adds the file when one is given', () => {
    const { map } = prelexDot('digraph {}', { file: 'f.dot', maxNestingDepth: 10 });
    expect(map.locateOutput(8)).toEqual({ file: 'f.dot', line: 1, column: 9 });
  });
});
