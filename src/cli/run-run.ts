import path from 'node:path';
import { compileRun, startPipeline } from '../run/engine.js';
import { assertRunDirFree } from '../run/resolve-run-dir.js';
import type { PipelineRun } from '../run/run-types.js';
import { definedFields } from '../shared/defined-fields.js';
import type { RunTui } from '../tui/start-run-tui.js';
import type { CliContext } from './cli-context.js';
import { cliReadScope } from './cli-read-scope.js';
import { createEventPrinter } from './event-printer.js';
import type { InspectStream } from './inspect-stream.js';
import { presentValidationFailure, validationFindings } from './present-validation-failure.js';
import { readPipelineSource } from './read-pipeline-source.js';
import type { RunFlags } from './run-flags.js';
import { finish, openInspection, openTui, printWarnings, startWith } from './run-lifecycle.js';
import { buildRun, pipelineSettings } from './run-setup.js';
import { errorWithShownFile, withShownFile } from './shown-locations.js';

/** `attractor run <file.dot>`: compile the pipeline once, build its services, run it, report how it ended. */
export async function runRun(file: string, flags: RunFlags, ctx: CliContext): Promise<number> {
  const source = readPipelineSource(file, ctx.io.cwd);
  // Checked first: a bad --allow-read is a flag error, whatever else the run would say.
  const readScope = cliReadScope(source.absolutePath, ctx.io.cwd, flags.allowRead);
  const runDir = flags.logsDir ?? flags.logDir;
  // Checked here too, so the message names the directory as the user typed it.
  if (runDir !== undefined) assertRunDirFree(path.resolve(ctx.io.cwd, runDir), runDir);
  const printer = createEventPrinter(flags.json === true, ctx);
  let tui: RunTui | undefined;
  let built: Awaited<ReturnType<typeof buildRun>>;
  let run: PipelineRun;
  let inspection: InspectStream | undefined;
  try {
    // Compiled once: the services, the agents, the TUI and the run all take this one.
    const compiled = compileRun({
      source: source.text,
      file: source.absolutePath,
      ...pipelineSettings(flags, readScope),
    });
    tui = await openTui(flags, ctx, { graph: compiled.graph });
    built = await buildRun(compiled, flags, ctx, tui ? tui.onEvent : printer.print, {
      readScope,
      ...(tui ? { interviewer: tui.interviewer } : {}),
    });
    inspection = await openInspection(flags, ctx);
    const { options } = built;
    run = await startWith(inspection, tui, (inspect) =>
      startPipeline({
        ...options,
        ...definedFields({ inspect }),
        onWarnings: printWarnings(ctx, (d) => withShownFile(d, source)),
        source: source.text,
        file: source.absolutePath,
        compiled,
      }),
    );
  } catch (error) {
    await tui?.close();
    const findings = validationFindings(error);
    if (findings) {
      const shown = findings.map((d) => withShownFile(d, source));
      return presentValidationFailure(shown, source.file, ctx);
    }
    throw errorWithShownFile(error, source);
  }
  built.real?.setRunDir(run.runDir);
  try {
    return await finish(run, built.interviewer, printer, flags, ctx, inspection, tui);
  } finally {
    await built.options.telemetry?.shutdown();
  }
}
