/**
 * A glob as a RegExp over `/`-separated relative paths: `*` and `?` stay within one path segment, `**`
 * spans any number of segments (also none), `[abc]` / `[!abc]` classes, `{a,b}` alternatives. Pure
 * JavaScript on purpose: the agent must work where no ripgrep or Node 22 `fs.glob` exists.
 *
 * @example
 * globToRegExp('src/**\/*.ts').test('src/a/b.ts') // true
 */
export function globToRegExp(glob: string, options: { caseInsensitive?: boolean } = {}): RegExp {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        i++;
        if (glob[i + 1] === '/' && atStart) {
          i++;
          out += '(?:[^/]*(?:/|$))*';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else {
      out += c.replace(/[.+^$()|\\\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`, options.caseInsensitive ? 'i' : '');
}
