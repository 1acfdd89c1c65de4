import { Box, useInput } from 'ink';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Question } from '../actors/interviewers/interviewer.js';
import { ActivityPane } from './ActivityPane.js';
import { GatePrompt } from './GatePrompt.js';
import { type GateInputState, gateInput, initialGateInput } from './gate-input.js';
import type { GateSource } from './gate-source.js';
import { Header } from './Header.js';
import { HelpBox } from './HelpBox.js';
import { PipelinePane } from './PipelinePane.js';
import type { RunStore } from './run-store.js';
import { StatusLine } from './StatusLine.js';
import { Transcript } from './Transcript.js';
import { useAnimationFrame } from './use-animation-frame.js';
import { useGate } from './use-gate.js';
import { useNodeDiff } from './use-node-diff.js';
import { useOutputTail } from './use-output-tail.js';
import { useRedrawOnShrink } from './use-redraw-on-shrink.js';
import { useRunState } from './use-run-state.js';
import { useTerminalSize } from './use-terminal-size.js';

export interface RunControls {
  pause(): void;
  cancel(): void;
}

export interface AppProps {
  store: RunStore;
  /** Questions this process can answer (the run's own interviewer, or the run directory's channel). */
  gates?: GateSource;
  /** Pause/cancel of a run this process owns; absent when attached to someone else's run. */
  controls?: RunControls;
  /** Quit the viewer (attach); a run's own TUI ends with the run. */
  onQuit?: () => void;
  runDir?: string;
  /** Fixed size instead of the terminal's (tests). */
  size?: { columns: number; rows: number };
  fps?: number;
  /** Wall clock (tests fix it). */
  clock?: () => number;
}

/** The container: subscribes to the run, owns selection and keys, and lays out the panes. */
export function App({ store, gates, controls, onQuit, runDir, size, fps, clock = Date.now }: AppProps) {
  const state = useRunState(store, fps);
  // Closing, the live panes go at once (the plain summary replaces them) and <Static> keeps its place in
  // the tree, so nothing is printed twice: the TUI closes without waiting for a throttled frame.
  const closing = useSyncExternalStore(store.subscribe, store.closing);
  const pending = useGate(gates);
  const terminal = useTerminalSize();
  const { columns, rows } = size ?? terminal;
  const width = Math.max(40, columns);
  const live =
    state.phase === 'running' ||
    state.phase === 'waiting' ||
    state.phase === 'pausing' ||
    state.phase === 'starting';
  const tick = useAnimationFrame(100, live, clock);
  const [selected, setSelected] = useState<string | undefined>();
  const [expanded, setExpanded] = useState(false);
  const [help, setHelp] = useState(false);
  const [input, setInputState] = useState<GateInputState>({ cursor: 0, typed: '', typing: false });
  // Keys may arrive faster than renders: the handler reads the latest prompt state from a ref.
  const inputRef = useRef(input);
  const setInput = (next: GateInputState) => {
    inputRef.current = next;
    setInputState(next);
  };
  const interrupts = useRef(0);
  const gateId = pending?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when another question comes
  useEffect(() => {
    if (pending) setInput(initialGateInput(pending.question));
  }, [gateId]);

  const shownId = selected ?? state.current ?? state.log.at(-1)?.nodeId ?? state.order[0];
  const shown = shownId === undefined ? undefined : state.nodes[shownId];
  const tail = useOutputTail(
    shown?.kind === 'tool' && runDir && shown.status !== 'pending'
      ? `${runDir}/${shown.id}/stdout.log`
      : undefined,
    8,
  );
  const diffStat = useNodeDiff(runDir, shown?.status === 'running' ? undefined : shown?.commit, 8);

  useInput((key, k) => {
    if (k.ctrl && key === 'c') {
      if (!controls) return onQuit?.();
      interrupts.current += 1;
      // At a gate no work could finish first: pausing "after this node" would wait for an answer. Stop
      // now; the question stays open and the resumed gate asks it again.
      if (pending) controls.cancel();
      // The pipeline actor takes the pause; the store shows "pausing" once the actor has it (actor-status.ts).
      else if (interrupts.current === 1) controls.pause();
      else controls.cancel();
      return;
    }
    // The status bar offers `?` at a gate too; only typed free text takes it as a character.
    if (pending && key === '?' && !inputRef.current.typing) return setHelp((h) => !h);
    if (pending) {
      const result = gateInput(pending.question, inputRef.current, { ...k, input: key });
      const refused = result.answer ? pending.answer(result.answer) : undefined;
      setInput(refused ? { ...result.state, error: refused } : result.state);
      return;
    }
    if (key === 'q' && onQuit) return onQuit();
    if (key === '?') return setHelp((h) => !h);
    if (key === 'f') return setSelected(undefined);
    if (k.return) return setExpanded((e) => !e);
    if (k.upArrow || k.downArrow) {
      const index = shownId === undefined ? -1 : state.order.indexOf(shownId);
      const next = state.order[Math.min(state.order.length - 1, Math.max(0, index + (k.upArrow ? -1 : 1)))];
      setSelected(next);
    }
  });

  const now = clock();
  const elapsed = state.startedAt ? (state.finishedAt ?? now) - state.startedAt : 0;
  const gateQuestion: Question | undefined =
    pending?.question ??
    (state.gate
      ? {
          text: state.gate.text,
          type: state.gate.type,
          options: state.gate.options,
          stage: state.gate.nodeId,
          ...(state.gate.defaultChoice ? { defaultChoice: state.gate.defaultChoice } : {}),
        }
      : undefined);
  const askedAt = pending?.askedAt ?? state.gate?.askedAt ?? now;
  const timeoutMs = pending?.question.timeoutMs ?? state.gate?.timeoutMs;
  const used = 3 + state.order.length + 2 + 1;
  const activityRows = Math.max(4, Math.min(24, rows - used - 3));
  // After a narrowing resize, as many finished entries as fit above the frame are printed again.
  // At least one entry, so the redraw always goes through <Static> (which makes Ink redraw all).
  const redraw = useRedrawOnShrink((screenRows) =>
    Math.max(
      0,
      Math.min(state.log.length - 1, state.log.length - Math.max(0, screenRows - (used + activityRows + 3))),
    ),
  );
  return (
    <Box flexDirection="column" width={width}>
      <Transcript
        key={redraw.generation}
        entries={redraw.from > 0 ? state.log.slice(redraw.from) : state.log}
      />
      {closing ? null : (
        <>
          <Header state={state} elapsedMs={elapsed} width={width} />
          <PipelinePane state={state} selected={selected} frame={tick} width={width} now={now} />
          {gateQuestion && live ? (
            <GatePrompt
              question={gateQuestion}
              input={input}
              {...(timeoutMs !== undefined ? { remainingMs: timeoutMs - (now - askedAt) } : {})}
              readOnly={!pending}
              width={width}
            />
          ) : (
            <ActivityPane
              node={shown}
              width={width}
              rows={activityRows}
              expanded={expanded}
              frame={tick}
              outputTail={tail}
              diffStat={diffStat}
            />
          )}
          {help ? <HelpBox width={width} /> : null}
          <StatusLine
            usage={state.usage}
            {...((shown?.model ?? state.usage.model) ? { model: shown?.model ?? state.usage.model } : {})}
            phase={state.phase}
            readOnly={!controls}
            width={width}
          />
        </>
      )}
    </Box>
  );
}
