import { render } from 'ink';
import { createElement } from 'react';
import type { InspectionEvent } from 'xstate';
import { withAnswerChannel } from '../actors/interviewers/answer-channel-interviewer.js';
import type { Interviewer } from '../actors/interviewers/interviewer.js';
import { loadPipeline } from '../compiler/compile.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import type { PipelineRun } from '../run/run-types.js';
import { definedFields } from '../shared/defined-fields.js';
import { localIdentity } from '../shared/identity.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { App } from './App.js';
import { followLines } from './follow-file.js';
import { formatRunSummary } from './format-run-summary.js';
import { createGateBroker } from './gate-broker.js';
import { createRunStore } from './run-store.js';
import { ThemeContext, themeFor } from './theme.js';
import { MAX_FPS } from './use-run-state.js';

/**
 * The pipeline, so the pane lists its nodes before any event arrives: as compiled for the run (the CLI
 * compiles once), or its DOT source and path to load here.
 */
export type TuiPipeline =
  | { graph: PipelineGraph }
  | {
      source: string;
      file?: string;
      /** Where the pipeline may read the files it names, as the run itself reads them. */
      readScope?: ReadScope;
      goal?: string;
    };

export type RunTuiOptions = TuiPipeline & {
  env: Record<string, string | undefined>;
  /** A run directory whose events.jsonl is replayed first (resume shows what already ran). */
  replayFrom?: string;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
};

export interface RunTui {
  /** Pass as the run's `onEvent`. */
  onEvent(event: PipelineEvent): void;
  /** Pass as (or with) the run's `inspect`: the TUI follows the live actor, not only its events. */
  inspect(event: InspectionEvent): void;
  /** Pass as the run's interviewer: gates are answered in the TUI or through the run directory. */
  interviewer: Interviewer;
  /** Shows the TUI for a started run (Ctrl-C pauses / cancels it). */
  mount(run: PipelineRun): void;
  /** Restores the terminal and leaves a plain summary on stdout. */
  close(): Promise<void>;
}

function replay(path: string, push: (event: PipelineEvent) => void): void {
  const follower = followLines(path, (line) => {
    try {
      push(JSON.parse(line) as PipelineEvent);
    } catch {
      // A torn last line of an interrupted run: skipped.
    }
  });
  follower.close();
}

/**
 * The TUI for a run this process executes. Ink and React are loaded only by importing this module,
 * which the CLI does lazily, and only on a terminal.
 */
export function startRunTui(options: RunTuiOptions): RunTui {
  const graph =
    'graph' in options
      ? options.graph
      : loadPipeline(options.source, {
          ...(options.file ? { file: options.file } : {}),
          ...definedFields({ readScope: options.readScope, goal: options.goal }),
        }).graph;
  const store = createRunStore(graph);
  if (options.replayFrom) replay(`${options.replayFrom}/events.jsonl`, store.push);
  const broker = createGateBroker();
  let run: PipelineRun | undefined;
  // From the run's first event: a resumed run may ask at its gate before it is mounted (decision 0024).
  let runDir: string | undefined;
  let instance: ReturnType<typeof render> | undefined;
  const stdout = options.stdout ?? process.stdout;
  return {
    onEvent(event) {
      if (event.kind === 'pipeline.start' || event.kind === 'pipeline.resume') {
        runDir = event.data.run_dir;
      }
      store.push(event);
    },
    inspect: (event) => store.observe(event),
    interviewer: withAnswerChannel(broker, () => run?.runDir ?? runDir, { answeredBy: localIdentity() }),
    mount(started) {
      run = started;
      const app = createElement(App, {
        store,
        gates: broker,
        controls: { pause: () => started.pause(), cancel: () => started.cancel(localIdentity()) },
        runDir: started.runDir,
      });
      instance = render(createElement(ThemeContext.Provider, { value: themeFor(options.env) }, app), {
        stdout,
        ...definedFields({ stdin: options.stdin }),
        exitOnCtrlC: false,
        maxFps: MAX_FPS,
      });
    },
    async close() {
      if (instance) {
        // The final state reaches the screen at once: new transcript lines go to Ink's <Static>, which
        // Ink writes unthrottled, and the live panes give way to the summary; unmounting flushes the frame.
        store.settle();
        // React commits that update from a microtask, before this resumes.
        await new Promise((resolve) => setImmediate(resolve));
        instance.unmount();
        await instance.waitUntilExit();
      }
      stdout.write(formatRunSummary(store.getState(), Date.now()));
    },
  };
}
