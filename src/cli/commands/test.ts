import { type Command, Option } from 'commander';
import type { CliContext } from '../cli-context.js';
import { parseSandboxFlag } from '../cli-sandbox.js';
import { parsePositiveInt } from '../parse-positive-int.js';
import type { TestFlags } from '../run-test.js';

const EXAMPLES = `
Runs the tests written next to pipelines: <name>.test.json or <name>.test.yaml, each naming its
pipeline and holding cases. A case scripts what it needs (node outcomes and context updates as a
scenario does, gate answers, a cassette to replay) and states what it expects: the route, the
final status and quality, context values, files in the working folder, cost limits for cassette
runs. Nothing calls a provider: LLM steps are simulated unless scripted or replayed. Each case
runs in a fresh working folder (tool commands run there, in the sandbox); cases run in parallel.

PATH is a folder (searched for test files), a pipeline (its test files) or a test file;
default: the current folder. Guide: docs/guides/testing-pipelines.md.

Examples:
  $ attractor test examples/
  $ attractor test examples/tour.dot --coverage
  $ attractor test --reporter junit --output test-results.xml

Exit codes: 0 every case passed, 1 a case failed or a test file is invalid, 2 bad command line.
`;

export function registerTestCommand(program: Command, ctx: CliContext): void {
  program
    .command('test')
    .description("run pipelines' tests offline (<name>.test.json / .test.yaml next to them)")
    .argument('[paths...]', 'folders, pipelines (.dot) or test files (default: the current folder)')
    .addOption(
      new Option('--reporter <name>', 'how to report')
        .choices(['default', 'json', 'junit'])
        .default('default'),
    )
    .option('--output <file>', 'write the report to this file instead of stdout')
    .option('--coverage', 'also report nodes, edges and condition outcomes no test exercised')
    .option(
      '--jobs <n>',
      'cases run at once (default: twice the number of cores, at least 4)',
      parsePositiveInt,
    )
    .option('--sandbox <on|off>', 'run tool commands in the sandbox (default on)', parseSandboxFlag)
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], flags: TestFlags) => {
      // Loaded here, not at the top: `attractor --version` must not pay for the engine.
      const { runTest } = await import('../run-test.js');
      ctx.setExitCode(await runTest(paths, flags, ctx));
    });
}
