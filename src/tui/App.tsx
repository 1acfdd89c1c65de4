import { Box } from 'ink';
import { useState, useSyncExternalStore } from 'react';
import { ActivityPane } from './ActivityPane.js';
import { GatePrompt } from './GatePrompt.js';
import type { GateSource } from './gate-source.js';
import { Header } from './Header.js';
import { HelpBox } from './HelpBox.js';
import { PipelinePane } from './PipelinePane.js';
import type { RunControls } from './run-controls.js';
import { runElapsedMs } from './run-elapsed.js';
import type { RunStore } from './run-store.js';
import { StatusLine } from './StatusLine.js';
import { shownGate } from './shown-gate.js';
import { Transcript } from './Transcript.js';
import { useAnimationFrame } from './use-animation-frame.js';
import { useGate } from './use-gate.js';
import { useGatePrompt } from './use-gate-prompt.js';
import { useNodeDiff } from './use-node-diff.js';
import { useOutputTail } from './use-output-tail.js';
import { useRedrawOnShrink } from './use-redraw-on-shrink.js';
import { useRunKeys } from './use-run-keys.js';
import { useRunState } from './use-run-state.js';
import { useTerminalSize } from './use-terminal-size.js';

export type { RunControls } from './run-controls.js';

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
  const prompt = useGatePrompt(pending);

  const shownId = selected ?? state.current ?? state.log.at(-1)?.nodeId ?? state.order[0];
  const shown = shownId === undefined ? undefined : state.nodes[shownId];
  const tail = useOutputTail(
    shown?.kind === 'tool' && runDir && shown.status !== 'pending'
      ? `${runDir}/${shown.id}/stdout.log`
      : undefined,
    8,
  );
  // Enter (expanded) shows the node's diff itself, as the web view's node panel does; else its diffstat.
  const diffStat = useNodeDiff(
    runDir,
    shown?.status === 'running' ? undefined : shown?.commit,
    expanded ? 40 : 8,
    expanded,
  );

  useRunKeys({
    controls,
    onQuit,
    pending,
    prompt,
    shownId,
    order: state.order,
    setSelected,
    setExpanded,
    setHelp,
  });

  const now = clock();
  const elapsed = runElapsedMs(state, now);
  const gate = shownGate(pending, state, now);
  const used = 3 + state.order.length + 2 + 1;
  const activityRows = Math.max(4, Math.min(24, rows - used - 3));
  // After a narrowing resize the whole transcript is printed again, then the frame.
  const redraw = useRedrawOnShrink();
  return (
    <Box flexDirection="column" width={width}>
      <Transcript key={redraw} entries={state.log} />
      {closing ? null : (
        <>
          <Header state={state} elapsedMs={elapsed} width={width} />
          <PipelinePane state={state} selected={selected} frame={tick} width={width} now={now} />
          {gate.question && live ? (
            <GatePrompt
              question={gate.question}
              input={prompt.input}
              {...(gate.timeoutMs !== undefined
                ? { remainingMs: gate.timeoutMs - (now - gate.askedAt) }
                : {})}
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
