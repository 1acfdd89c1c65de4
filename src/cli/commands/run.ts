import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { parseSandboxFlag } from '../cli-sandbox.js';
import { collectRepeated } from '../collect-repeated.js';
import { parseInspectOriginFlag } from '../inspect-origin.js';
import { parsePositiveInt } from '../parse-positive-int.js';
import { parseSetFlag } from '../parse-set-flag.js';
import { parseSizeFlag } from '../parse-size-flag.js';
import { parseUsd } from '../parse-usd.js';
import type { RunFlags } from '../run-flags.js';

const EXAMPLES = `
Runs the pipeline from its start node. Every run gets a run directory holding
manifest.json, a copy of the DOT source, events.jsonl, checkpoint.json (while the run
runs, each step goes first to checkpoint-journal.jsonl, deleted when it stops) and one
folder per node: --logs-dir DIR is that directory itself (created if missing; a DIR that
already holds a run is refused, resume it instead, and so is one holding files the run
would write over, such as a pipeline.dot of yours); without it each run gets
.attractor-runs/<graph>/<run id>/. The first lines of a run say where it is.

Examples:
  $ attractor run examples/tour.dot --dry-run
  $ attractor run pipeline.dot --scenario scenario.json --json
  $ attractor run pipeline.dot --goal "Add a health endpoint" --logs-dir /tmp/run-1
  $ attractor run pipeline.dot --set feature=login --set env=prod

Pipeline parameters: a graph attribute vars="feature, env=staging" declares them (defaults
after =); --set gives values; $feature expands in prompts and labels, and conditions read
vars.feature. Tool commands get the goal and each parameter as environment variables
($goal, $feature), so a value is never run as shell syntax. A parameter with no value, or
--set of an undeclared name, is an error before the run starts. Resume reuses the original
values.

--dry-run     nothing external runs: no model calls (LLM steps are simulated), no tool
              commands (each is recorded in <node>/command.sh and counts as exit code 0
              with empty output), and human gates take their first option unless
              --scenario answers them. --model and --provider apply to real runs only.
--scenario F  scripted outcomes per node and answers per gate (docs/guides/pipelines.md); implies the
              simulated backend for codergen nodes.
--allow-read DIR  the files a pipeline names (@file prompts, child DOT files) must lie in
              its folder or the working directory; this allows one more folder (repeatable).

Real runs (no --dry-run, --scenario or --replay) call models with keys from the
environment or a .env file: ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, or
OPENAI_COMPATIBLE_BASE_URL for a local server (OPENAI_COMPATIBLE_API_KEY only if it wants
one). Each agent turn may write up to the model's own output limit (node max_tokens=N
caps it); an answer cut off inside a tool call is never run, the agent is asked for
smaller steps. A context window past 80% is a warning (agent.context_window_warning);
auto_compact=true on a node or the graph summarises older turns instead, at the cost of
an extra model call.

--inspect     open http://127.0.0.1:8080 in a browser to watch the run in the Stately
              inspector (needs the optional package ws, and internet for the viewer
              itself); a page opened late is replayed the whole run first. Only the
              server's own page and non-browser clients may connect; --inspect-origin
              ORIGIN allows another web origin. The server stops when the run ends.

The last line gives the run's quality: clean; degraded (a node's failure was routed around
and never repaired, or the run ended at a node that is not an exit because no edge matched:
"ended at check: no edge matched"); failed. A node that failed and later passed (red, then
green) is named as recovered and keeps the run clean.

Ctrl-C once: finish the current node, checkpoint, print how to resume, exit 130.
Ctrl-C twice: abort now (child processes are killed), checkpoint, exit 130.
At a gate waiting for an answer, Ctrl-C once stops there; resume asks again.
Exit codes: 0 success (a dead end included), 1 failure (or invalid pipeline), 2 bad command
line (an unknown flag, or a malformed value such as --max-cost abc, in every mode),
130 interrupted.
`;

/** Flags of `run` and `resume`; only `run` chooses a run directory (a resume continues in its own). */
export function addRunFlags(command: Command, options: { runDir: boolean } = { runDir: true }): Command {
  const withModel = command
    .option('--goal <goal>', 'override the graph goal ($goal)')
    .option('--model <model>', 'default model for codergen nodes that set none')
    .option('--provider <provider>', 'default provider for codergen nodes that set none');
  const withDir = options.runDir
    ? withModel
        .option('--logs-dir <dir>', 'the run directory itself (default .attractor-runs/<graph>/<run id>/)')
        .option('--log-dir <dir>', 'alias of --logs-dir')
        .option(
          '--set <name=value>',
          'a pipeline parameter declared in vars (repeatable; $name, vars.<name>)',
          parseSetFlag,
        )
    : withModel;
  return withDir
    .option('--checkpoint-dir <dir>', 'also keep a timestamped checkpoint history in this directory')
    .option(
      '--max-steps <n>',
      'stop with a failure after this many node visits (default 1000)',
      parsePositiveInt,
    )
    .option(
      '--dry-run',
      'nothing external runs: no model calls, no tool commands; gates take their first option',
    )
    .option('--scenario <file>', 'scripted node outcomes and human answers (JSON)')
    .option('--auto-approve', 'answer every human gate with its first option')
    .option('--record <file>', 'keep every model exchange of the run in this cassette (JSONL)')
    .option('--replay <file>', 'answer every model call from a recorded cassette: no keys, no network')
    .option('--max-cost <usd>', 'pause the run once its models cost more than this (US dollars)', parseUsd)
    .option('--allow-unpriced', 'under a budget, also run models the catalog has no price for (uncounted)')
    .option('--workdir <dir>', 'where the agents and tool commands work (default: the current directory)')
    .option('--no-snapshots', 'do not snapshot the working tree after each node (docs/guides/run-files.md)')
    .option(
      '--snapshot-max-file <size>',
      'leave files larger than this out of snapshots (default 10MB)',
      parseSizeFlag,
    )
    .option(
      '--snapshot-budget <size>',
      'skip a snapshot whose new files exceed this (default 500MB)',
      parseSizeFlag,
    )
    .option(
      '--sandbox <on|off>',
      'run tool commands, agent shells and hooks inside the sandbox (default on; docs/guides/security.md)',
      parseSandboxFlag,
    )
    .option(
      '--allow-read <dir>',
      'another folder the pipeline may name files in (repeatable; default: its folder and the working directory)',
      collectRepeated,
    )
    .option('--otel', 'export the run as an OpenTelemetry trace (OTLP/HTTP; docs/guides/tracing.md)')
    .option('--otel-content', 'put prompts, responses and tool arguments in the trace (off by default)')
    .option('--json', 'print one JSON event per line on stdout, nothing else')
    .option('--no-tui', 'plain progress lines even on a terminal')
    .option('--inspect [port]', 'serve live XState inspection events on 127.0.0.1 (default port 8080)')
    .option(
      '--inspect-origin <origin>',
      'also let this web origin read the --inspect stream (repeatable), e.g. https://stately.ai',
      parseInspectOriginFlag,
    )
    .option('--inspect-log <file>', 'write every XState inspection event to FILE as JSON Lines');
}

export function registerRunCommand(program: Command, ctx: CliContext): void {
  addRunFlags(program.command('run').description('run a pipeline').argument('<file>', 'the pipeline (.dot)'))
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, flags: RunFlags) => {
      const { runRun } = await import('../run-run.js');
      ctx.setExitCode(await runRun(file, flags, ctx));
    });
}
