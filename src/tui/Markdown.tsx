import { Box, Text } from 'ink';
import { memo } from 'react';
import type { MarkdownSegment, MarkdownStyle } from './render-markdown.js';
import type { Theme } from './theme.js';
import { useTheme } from './use-theme.js';

function styleProps(style: MarkdownStyle, theme: Theme) {
  switch (style) {
    case 'bold':
      return { bold: true };
    case 'italic':
      return { italic: true };
    case 'heading':
      return { bold: true, color: theme.heading };
    case 'code':
      return { color: theme.code };
    case 'quote':
    case 'fence':
    case 'comment':
      return { color: theme.comment, dimColor: theme.comment === undefined };
    case 'bullet':
      return { color: theme.accent };
    case 'keyword':
      return { color: theme.keyword };
    case 'string':
      return { color: theme.string };
    case 'number':
      return { color: theme.number };
    case 'added':
      return { color: theme.added };
    case 'removed':
      return { color: theme.removed };
    case 'link':
      return { underline: true };
    case 'plain':
      return {};
  }
}

const sameSegments = (a: MarkdownSegment[], b: MarkdownSegment[]): boolean =>
  a === b ||
  (a.length === b.length &&
    a.every((segment, i) => segment.text === b[i]?.text && segment.style === b[i]?.style));

/**
 * One line. The lines are parsed again every frame, but while text streams in only the last one
 * changes (or all move up by one): equal lines are not rendered again.
 */
const MarkdownLine = memo(
  function MarkdownLine({ segments }: { segments: MarkdownSegment[] }) {
    const theme = useTheme();
    return (
      <Text>
        {segments.map((segment, j) =>
          // Plain text needs no <Text> of its own (one component fewer to render per segment).
          segment.style === 'plain' ? (
            segment.text
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: segments of one line never reorder
            <Text key={j} {...styleProps(segment.style, theme)}>
              {segment.text}
            </Text>
          ),
        )}
      </Text>
    );
  },
  (before, after) => sameSegments(before.segments, after.segments),
);

/** Lays out lines already parsed by render-markdown.ts (markdown-it, highlight.js). */
export function Markdown({ lines }: { lines: MarkdownSegment[][] }) {
  return (
    <Box flexDirection="column">
      {lines.map((segments, i) => (
        // Lines of one text never reorder: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <MarkdownLine key={i} segments={segments} />
      ))}
    </Box>
  );
}
