import { type Command, Option } from 'commander';
import { ROLES } from '../../server/auth/role-names.js';
import type { CliContext } from '../cli-context.js';
import { type StoreFlags, storeOptions } from './store-options.js';

const EXAMPLES = `
Personal API tokens for scripts and CI, kept where a server keeps its runs: the file store under
--data-dir, or PostgreSQL with --store (give the same option as to \`attractor serve\`). The store
keeps only each token's SHA-256: \`create\` prints the token once, on its last line. Once any token
exists, that server needs a token (or a signed-in session) on every request but the page shell,
the sign-in page and /healthz; a revoked or expired token is refused with 401 saying why.
Roles: viewer (sees runs), operator (starts, cancels, resumes, forks), approver (answers gates),
admin (all of them, and tokens). See docs/guides/teams.md.

Examples:
  $ attractor token create --data-dir ./serve-data --name ci --role operator --expires 90d
  $ attractor token list --store postgres://attractor@db/attractor
  $ attractor token revoke ci --data-dir ./serve-data
`;

export type TokenStoreFlags = StoreFlags;

export interface TokenCreateFlags extends TokenStoreFlags {
  name: string;
  role: string;
  expires?: string;
}

export function registerTokenCommand(program: Command, ctx: CliContext): void {
  const token = program
    .command('token')
    .description('create, list and revoke personal API tokens of a server')
    .addHelpText('after', EXAMPLES);
  storeOptions(token.command('create').description('create a token and print it once'))
    .requiredOption('--name <name>', 'what the token is for (ci, deploy-bot); recorded as who acted')
    .addOption(new Option('--role <role>', 'what it may do').choices(ROLES).makeOptionMandatory())
    .option('--expires <age>', 'refuse it after this long (90d, 12h, 2w; default: never)')
    .action(async (flags: TokenCreateFlags) => {
      const { runTokenCreate } = await import('../run-token.js');
      ctx.setExitCode(await runTokenCreate(flags, ctx));
    });
  storeOptions(token.command('list').description('list the tokens (never the tokens themselves)'))
    .option('--json', 'print them as one JSON array')
    .action(async (flags: TokenStoreFlags & { json?: boolean }) => {
      const { runTokenList } = await import('../run-token.js');
      ctx.setExitCode(await runTokenList(flags, ctx));
    });
  storeOptions(
    token.command('revoke').description('revoke the live token of that name').argument('<name>'),
  ).action(async (name: string, flags: TokenStoreFlags) => {
    const { runTokenRevoke } = await import('../run-token.js');
    ctx.setExitCode(await runTokenRevoke(name, flags, ctx));
  });
}
