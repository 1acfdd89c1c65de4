import { Box, Text } from 'ink';
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
    case 'plain':
      return {};
  }
}

/** Lays out lines already parsed by render-markdown.ts. */
export function Markdown({ lines }: { lines: MarkdownSegment[][] }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      {lines.map((segments, i) => (
        // Lines of one text never reorder: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Text key={i}>
          {segments.map((segment, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: segments of one line never reorder
            <Text key={j} {...styleProps(segment.style, theme)}>
              {segment.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
