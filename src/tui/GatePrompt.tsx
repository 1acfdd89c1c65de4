import { Box, Text } from 'ink';
import { acceptsText } from '../actors/interviewers/check-answer.js';
import type { Question } from '../actors/interviewers/interviewer.js';
import { stripAcceleratorPrefix } from '../compiler/accelerator.js';
import { printableText } from '../shared/printable-text.js';
import type { GateInputState } from './gate-input.js';
import { useTheme } from './use-theme.js';

export interface GatePromptProps {
  question: Question;
  input: GateInputState;
  /** Milliseconds left before the gate's timeout; undefined when it has none. */
  remainingMs?: number;
  /** Shown but not answerable here (attach to a run whose gate this process cannot answer). */
  readOnly?: boolean;
  /** The keys are the evidence's (Tab): the options wait. */
  evidenceFocused?: boolean;
  width: number;
}

/** The human gate, answered in place: options with their keys, a text field, a countdown. */
export function GatePrompt({
  question,
  input,
  remainingMs,
  readOnly,
  evidenceFocused,
  width,
}: GatePromptProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width} borderStyle="double" borderColor={theme.key} paddingX={1}>
      <Text bold wrap="wrap">
        <Text color={theme.key}>? </Text>
        {printableText(question.text)}
      </Text>
      {question.options.map((option, i) => {
        const active = !input.typing && i === input.cursor && !readOnly && !evidenceFocused;
        return (
          <Text key={`${option.key}-${option.label}`} wrap="truncate-end">
            <Text color={theme.accent}>{active ? '❯ ' : '  '}</Text>
            <Text color={theme.key} bold>
              [{option.key}]
            </Text>{' '}
            <Text bold={active}>{printableText(stripAcceleratorPrefix(option.label))}</Text>
            {option.target ? <Text color={theme.muted}> → {option.target}</Text> : null}
          </Text>
        );
      })}
      {input.typing ? (
        <Text>
          <Text color={theme.accent}>&gt; </Text>
          {input.typed}
          <Text inverse> </Text>
        </Text>
      ) : null}
      {input.error ? (
        <Text color={theme.warn} wrap="wrap">
          ✗ {input.error}
        </Text>
      ) : null}
      {remainingMs !== undefined ? (
        <Text color={theme.warn}>
          ⏱ {Math.max(0, Math.ceil(remainingMs / 1000))}s left
          {question.defaultChoice
            ? `, then the default [${question.defaultChoice}]`
            : ', then the gate retries'}
        </Text>
      ) : null}
      <Text color={theme.muted} wrap="truncate-end">
        {readOnly
          ? 'read-only: this run cannot be answered from here'
          : evidenceFocused
            ? 'reading the evidence above · Tab or Esc: back to the options'
            : input.typing
              ? `type ${acceptsText(question) ? 'an answer' : "an option's key or label"}, Enter to send${question.type === 'freeform' ? '' : ', Esc for the options'}`
              : `↑/↓ + Enter, or press a key · / to type ${question.textOption ? `an answer (free text → ${stripAcceleratorPrefix(question.textOption.label)})` : 'an option'} · Tab: the evidence`}
      </Text>
    </Box>
  );
}
