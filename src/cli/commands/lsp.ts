import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

const EXAMPLES = `
Speaks the Language Server Protocol on stdin/stdout for pipeline .dot files: diagnostics from
validate as you type (with quick fixes), completion of attributes, shapes, handler types, models,
node ids, stylesheet selectors and condition keys, hover documentation for every attribute, go to
definition of node ids and @file prompts, and renaming a node id. Editors start it; see
docs/guides/editors.md (VS Code: editors/vscode/; Neovim; Helix).

Examples:
  $ attractor lsp --stdio
`;

export function registerLspCommand(program: Command, ctx: CliContext): void {
  program
    .command('lsp')
    .description('run the language server for pipeline .dot files (editors start it)')
    .option('--stdio', 'talk over stdin/stdout (the default and only transport)')
    .addHelpText('after', EXAMPLES)
    .action(async () => {
      // Loaded here, not at the top: other commands must not pay for the language server.
      const { startLanguageServer } = await import('../../lsp/start-language-server.js');
      await startLanguageServer();
      ctx.setExitCode(0);
    });
}
