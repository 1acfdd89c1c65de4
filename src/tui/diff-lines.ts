export interface DiffLine {
  sign: '+' | '-' | ' ' | '@';
  text: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The diff an edit tool call makes, from its arguments: a unified diff or patch when the tool takes
 * one, else old/new text pairs (`old_string`/`new_string` and similar), else a whole new file's
 * content. Undefined for tool calls that do not edit.
 */
export function diffLines(name: string, args: Record<string, unknown>): DiffLine[] | undefined {
  const patch =
    str(args['patch']) ?? str(args['diff']) ?? (name === 'apply_patch' ? str(args['input']) : undefined);
  if (patch !== undefined) {
    return patch
      .split('\n')
      .filter((line) => !line.startsWith('+++') && !line.startsWith('---') && line !== '')
      .map((line) => {
        const sign = line[0];
        if (sign === '+' || sign === '-') return { sign, text: line.slice(1) };
        if (sign === '@' || line.startsWith('***')) return { sign: '@' as const, text: line };
        return { sign: ' ' as const, text: line.startsWith(' ') ? line.slice(1) : line };
      });
  }
  const before = str(args['old_string']) ?? str(args['old_str']) ?? str(args['old_text']);
  const after = str(args['new_string']) ?? str(args['new_str']) ?? str(args['new_text']);
  if (before !== undefined || after !== undefined) {
    return [
      ...(before ?? '')
        .split('\n')
        .filter((l, i, all) => l !== '' || i < all.length - 1)
        .map((text) => ({ sign: '-' as const, text })),
      ...(after ?? '')
        .split('\n')
        .filter((l, i, all) => l !== '' || i < all.length - 1)
        .map((text) => ({ sign: '+' as const, text })),
    ];
  }
  if (/write|create/.test(name)) {
    const content = str(args['content']) ?? str(args['file_text']);
    if (content !== undefined) return content.split('\n').map((text) => ({ sign: '+' as const, text }));
  }
  return undefined;
}
