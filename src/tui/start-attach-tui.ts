import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink';
import { createElement } from 'react';
import { loadPipeline } from '../compiler/compile.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { App } from './App.js';
import { followLines } from './follow-file.js';
import { formatRunSummary } from './format-run-summary.js';
import type { RunPhase } from './run-state.js';
import { createRunStore } from './run-store.js';
import { ThemeContext, themeFor } from './theme.js';
import { MAX_FPS } from './use-run-state.js';
import { watchQuestionFiles } from './watch-question-files.js';

export interface AttachOptions {
  runDir: string;
  env: Record<string, string | undefined>;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

/**
 * `attractor attach <run-dir>`: the same TUI on a run another process executes. Replays events.jsonl,
 * follows it as it grows, and answers gates through the run directory's answer channel. Resolves with
 * the run's phase when the run ends, or the phase seen so far when the user quits (q, Ctrl-C).
 */
export async function attachTui(options: AttachOptions): Promise<{ phase: RunPhase; quit: boolean }> {
  const dotPath = join(options.runDir, 'pipeline.dot');
  if (!existsSync(dotPath)) {
    throw new AttractorError(
      'ATTACH_NOT_A_RUN',
      `${options.runDir} has no pipeline.dot: is it a run directory?`,
    );
  }
  const { graph } = loadPipeline(readFileSync(dotPath, 'utf8'), { file: dotPath });
  const store = createRunStore(graph);
  const stdout = options.stdout ?? process.stdout;
  let quit = false;
  let end: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const follower = followLines(join(options.runDir, 'events.jsonl'), (line) => {
    let event: PipelineEvent;
    try {
      event = JSON.parse(line) as PipelineEvent;
    } catch {
      return;
    }
    store.push(event);
    if (event.kind === 'pipeline.finalize') end();
  });
  const gates = watchQuestionFiles(options.runDir);
  const app = createElement(App, {
    store,
    gates,
    runDir: options.runDir,
    onQuit: () => {
      quit = true;
      end();
    },
  });
  const instance = render(createElement(ThemeContext.Provider, { value: themeFor(options.env) }, app), {
    stdout,
    ...definedFields({ stdin: options.stdin }),
    exitOnCtrlC: false,
    maxFps: MAX_FPS,
  });
  await ended;
  follower.close();
  gates.close();
  // As for a run's own TUI (start-run-tui.ts): the final state at once, then only the transcript.
  store.settle();
  // React commits that update from a microtask, before this resumes.
  await new Promise((resolve) => setImmediate(resolve));
  instance.unmount();
  await instance.waitUntilExit();
  stdout.write(formatRunSummary(store.getState(), Date.now()));
  return { phase: store.getState().phase, quit };
}
