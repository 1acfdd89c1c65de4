import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { EXIT_USAGE } from '../exit-codes.js';

const EXAMPLES = `
Examples:
  $ attractor help run
  $ attractor help attributes      # every graph, node and edge attribute, its type and what it does
`;

/**
 * `attractor help [topic]`: a command's help, or a topic that is no command (`attributes`). It takes the
 * place of commander's own help command, which knows only commands.
 */
export function registerHelpCommand(program: Command, ctx: CliContext): void {
  program.helpCommand(false);
  program
    .command('help')
    .description('show help for a command, or "attributes": every attribute a pipeline may set')
    .argument('[topic]', 'a command, or "attributes"')
    .addHelpText('after', EXAMPLES)
    .action(async (topic: string | undefined) => {
      if (topic === 'attributes') {
        const { formatAttributeTable } = await import('../format-attribute-table.js');
        ctx.io.stdout(formatAttributeTable());
        return;
      }
      const command = program.commands.find((c) => c.name() === topic || c.aliases().includes(topic ?? ''));
      if (topic !== undefined && command === undefined) {
        ctx.io.stderr(`attractor: no help for '${topic}': not a command, nor "attributes".\n`);
        ctx.io.stderr(`Run 'attractor --help' for the commands.\n`);
        ctx.setExitCode(EXIT_USAGE);
        return;
      }
      (command ?? program).outputHelp();
    });
}
