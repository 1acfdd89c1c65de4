import { Box } from 'ink';
import { useState, useSyncExternalStore } from 'react';
import type { Question } from '../actors/interviewers/interviewer.js';
import { ActivityPane } from './ActivityPane.js';
import { EvidencePane } from './EvidencePane.js';
import { evidenceLines, evidenceNodeOf } from './evidence-lines.js';
import { GatePrompt } from './GatePrompt.js';
import type { GateInputState } from './gate-input.js';
import type { GateSource } from './gate-source.js';
import { Header } from './Header.js';
import { HelpBox } from './HelpBox.js';
import { PipelinePane, pipelinePaneRows } from './PipelinePane.js';
import type { RunControls } from './run-controls.js';
import { runElapsedMs } from './run-elapsed.js';
import type { RunStore } from './run-store.js';
import { StatusLine } from './StatusLine.js';
import { shownGate } from './shown-gate.js';
import { Transcript } from './Transcript.js';
import { useAnimationFrame } from './use-animation-frame.js';
import { useEvidenceView } from './use-evidence-view.js';
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

/** How many lines of a node's output and diff a gate's evidence reads (it scrolls through them). */
const EVIDENCE_LINES = 400;

/** The rows the gate prompt takes: its border, question, options, hint, and what it shows besides. */
function gatePromptRows(question: Question | undefined, input: GateInputState, width: number): number {
  if (!question) return 0;
  // The question wraps inside the double border and its padding.
  const questionRows = Math.max(1, Math.ceil((question.text.length + 2) / Math.max(1, width - 4)));
  return (
    3 +
    questionRows +
    question.options.length +
    (question.timeoutMs !== undefined ? 1 : 0) +
    (input.typing ? 1 : 0) +
    (input.error ? 1 : 0)
  );
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

  const now = clock();
  const gate = shownGate(pending, state, now);
  const atGate = gate.question !== undefined && live;
  const shownId = selected ?? state.current ?? state.log.at(-1)?.nodeId ?? state.order[0];
  const shown = shownId === undefined ? undefined : state.nodes[shownId];
  // At a gate, the node before it stays in view (its evidence) beside the options, with its whole diff.
  const evidenceNode = atGate ? evidenceNodeOf(state, selected, runDir !== undefined) : undefined;
  const panelNode = atGate ? evidenceNode : shown;
  const tail = useOutputTail(
    panelNode?.kind === 'tool' && runDir && panelNode.status !== 'pending'
      ? `${runDir}/${panelNode.id}/stdout.log`
      : undefined,
    atGate ? EVIDENCE_LINES : 8,
  );
  // Enter (expanded) shows the node's diff itself, as the web view's node panel does; else its diffstat.
  const diffStat = useNodeDiff(
    runDir,
    panelNode?.status === 'running' ? undefined : panelNode?.commit,
    atGate ? EVIDENCE_LINES : expanded ? 40 : 8,
    atGate || expanded,
  );
  const evidence = useEvidenceView(atGate ? (pending?.id ?? gate.question?.stage) : undefined);
  const used = 3 + pipelinePaneRows(state) + 2 + 1;
  const evidenceLinesShown = evidenceLines(evidenceNode, tail, diffStat);
  const evidenceRows = Math.max(3, rows - used - gatePromptRows(gate.question, prompt.input, width) - 3);

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
    evidence: { ...evidence, total: evidenceLinesShown.length, rows: evidenceRows },
  });

  const elapsed = runElapsedMs(state, now);
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
          {gate.question && atGate ? (
            <EvidencePane
              title={`evidence: ${evidenceNode?.label ?? 'none'}`}
              lines={evidenceLinesShown}
              offset={Math.min(evidence.view.offset, Math.max(0, evidenceLinesShown.length - evidenceRows))}
              rows={evidenceRows}
              focused={evidence.view.focus === 'evidence' && pending !== undefined}
              scrollable={pending !== undefined}
              width={width}
            />
          ) : null}
          {gate.question && atGate ? (
            <GatePrompt
              question={gate.question}
              input={prompt.input}
              {...(gate.timeoutMs !== undefined
                ? { remainingMs: gate.timeoutMs - (now - gate.askedAt) }
                : {})}
              readOnly={!pending}
              evidenceFocused={evidence.view.focus === 'evidence'}
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
