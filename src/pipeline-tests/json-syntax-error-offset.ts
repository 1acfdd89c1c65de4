/**
 * Where JSON text first breaks JSON's grammar (a character offset), or undefined when it is valid JSON.
 * `JSON.parse` says why but, on Node 20, not always where ("Unexpected token ','"): this scan finds the
 * place, so a test file's error can name its line and column.
 */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++;
  };
  const expect = (literal: string): void => {
    if (text.startsWith(literal, at)) at += literal.length;
    else fail();
  };
  const string = (): void => {
    expect('"');
    while (at < text.length && text[at] !== '"') {
      if (text.charCodeAt(at) < 0x20) fail();
      if (text[at] !== '\\') at++;
      else if (/^\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(at, at + 6)))
        at += text[at + 1] === 'u' ? 6 : 2;
      else fail();
    }
    expect('"');
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match) fail();
    at += match?.[0].length ?? 0;
  };
  const list = (close: string, item: () => void): void => {
    at++;
    space();
    if (text[at] === close) return void at++;
    for (;;) {
      item();
      space();
      if (text[at] === close) return void at++;
      expect(',');
      space();
    }
  };
  const value = (): void => {
    space();
    const ch = text[at];
    if (ch === '{')
      list('}', () => {
        string();
        space();
        expect(':');
        value();
      });
    else if (ch === '[') list(']', value);
    else if (ch === '"') string();
    else if (ch === 't') expect('true');
    else if (ch === 'f') expect('false');
    else if (ch === 'n') expect('null');
    else number();
  };
  try {
    value();
    space();
    return at < text.length ? at : undefined;
  } catch (offset) {
    if (typeof offset === 'number') return offset;
    throw offset;
  }
}
