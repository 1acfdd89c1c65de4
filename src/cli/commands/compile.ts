import { type Command, Option } from 'commander';
import type { CliContext } from '../cli-context.js';
import { collectRepeated } from '../collect-repeated.js';
import { COMPILE_FORMATS, type CompileFormat } from '../compile-format.js';

const EXAMPLES = `
Prints the pipeline after transforms (aliases, defaults, subgraph classes, stylesheet) on stdout.
Errors stop compilation (exit 1, diagnostics on stderr); warnings go to stderr and output still follows.

Formats:
  json    {"name", "goal", "attrs", "nodes": [{"id", "handler", "attrs"}], "edges": [{"source", "target", "attrs"}]}
  xstate  the XState machine config that runs (plain JSON; actors, guards and actions by name)
  svg     a Graphviz drawing (bundled WebAssembly Graphviz, no system install needed)

Examples:
  $ attractor compile examples/tour.dot
  $ attractor compile pipeline.dot --format xstate > machine.json
  $ attractor compile pipeline.dot --format svg > pipeline.svg
`;

export function registerCompileCommand(program: Command, ctx: CliContext): void {
  program
    .command('compile')
    .description('print a pipeline after transforms, as JSON, XState config or SVG')
    .argument('<file>', 'the pipeline (.dot)')
    .addOption(new Option('--format <format>', 'output format').choices(COMPILE_FORMATS).default('json'))
    .option(
      '--allow-read <dir>',
      'another folder the pipeline may name files in (repeatable; default: its folder and the working directory)',
      collectRepeated,
    )
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, options: { format: CompileFormat; allowRead?: string[] }) => {
      // Loaded here, not at the top: `attractor --version` must not pay for the compiler.
      const { runCompile } = await import('../run-compile.js');
      ctx.setExitCode(await runCompile(file, options, ctx));
    });
}
