import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { collectRepeated } from '../collect-repeated.js';
import type { ValidateOptions } from '../run-validate.js';

const EXAMPLES = `
Parses the file, applies transforms (stylesheet, $goal, @file prompts) and runs every lint rule.
Prints one line per finding, file:line:col: severity rule: message, then a summary.
Every file the pipeline names (@file prompts, child DOT files of manager loops) must exist
and lie inside the pipeline's folder or the working directory (--allow-read DIR adds more).

Examples:
  $ attractor validate examples/tour.dot
  $ attractor validate pipeline.dot --strict        # warnings fail too
  $ attractor validate pipeline.dot --json | jq .valid
  $ attractor validate pipeline.dot --known-type deploy   # a handler your application registers

A node whose handler type is neither built in nor declared with --known-type is an error: run by
attractor it would be a coding agent with a shell.

Exit codes: 0 valid, 1 invalid or unreadable, 2 bad command line.
With --json, unreadable or unparseable input is one diagnostic whose rule is the error code
(for example "dot_syntax") and stdout is always JSON:
  {"valid": bool, "diagnostics": [{"rule", "severity", "message", "node_id"?, "edge"?, "fix"?, "edits"?, "loc"?}]}
`;

export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('check a pipeline .dot file and list its errors and warnings')
    .argument('<file>', 'the pipeline (.dot)')
    .option('--strict', 'treat warnings as errors (exit 1 when there is any warning)')
    .option('--json', 'print {"valid", "diagnostics"} as JSON on stdout')
    .option(
      '--allow-read <dir>',
      'another folder the pipeline may name files in (repeatable; default: its folder and the working directory)',
      collectRepeated,
    )
    .option(
      '--known-type <name>',
      'a handler type your own application registers, so it is no error (repeatable)',
      collectRepeated,
    )
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, options: ValidateOptions) => {
      // Loaded here, not at the top: `attractor --version` must not pay for the compiler.
      const { runValidate } = await import('../run-validate.js');
      ctx.setExitCode(runValidate(file, options, ctx));
    });
}
