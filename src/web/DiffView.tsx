import { ScrollPre } from './ScrollPre.js';
/** The class of one line of a unified diff: added, removed, a file or hunk header, or context. */
export function diffLineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return '';
}

/** What a node's agent changed in its working tree, coloured by line. */
export function DiffView({ diff }: { diff: string | null | undefined }) {
  if (!diff) return null;
  const files = diff.split('\n').filter((l) => l.startsWith('diff ')).length;
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  return (
    <details open id="node-diff">
      <summary>
        Changes ({files} {files === 1 ? 'file' : 'files'})
      </summary>
      <ScrollPre className="diff">
        {lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity but their place
          <span key={i} className={diffLineClass(line)}>
            {line}
            {'\n'}
          </span>
        ))}
      </ScrollPre>
    </details>
  );
}
