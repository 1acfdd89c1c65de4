import { type Command, Option } from 'commander';
import { ROLES } from '../../server/auth/role-names.js';
import type { CliContext } from '../cli-context.js';
import { type StoreFlags, storeOptions } from './store-options.js';

const EXAMPLES = `
Roles of people who sign in with OpenID Connect, kept where a server keeps its runs: the file store
under --data-dir, or PostgreSQL with --store (give the same option as to \`attractor serve\`). A user is
named by the email or the subject the provider sends, a group by a name in its groups claim. A person
holds what --access FILE grants and what the store grants; a grant or a revoke here reaches people
already signed in on their next request. Each grant and revoke is appended to the audit trail.
Roles: viewer (sees runs), operator (starts, cancels, resumes, forks), approver (answers gates),
admin (all of them, tokens and roles). See docs/guides/teams.md.

Examples:
  $ attractor role grant --data-dir ./serve-data --user alice@example.com --role approver
  $ attractor role grant --store postgres://attractor@db/attractor --group platform --role operator
  $ attractor role list --data-dir ./serve-data --json
  $ attractor role revoke --data-dir ./serve-data --user alice@example.com --role approver
  $ attractor role revoke --data-dir ./serve-data --group contractors
`;

export interface RoleFlags extends StoreFlags {
  user?: string;
  group?: string;
  role?: string;
}

const granteeOptions = (command: Command): Command =>
  storeOptions(command)
    .option('--user <id>', 'a person: the email or subject their OpenID provider sends')
    .option('--group <name>', "a group of the provider's groups claim");

const roleOption = (description: string, mandatory: boolean): Option => {
  const option = new Option('--role <role>', description).choices(ROLES);
  return mandatory ? option.makeOptionMandatory() : option;
};

export function registerRoleCommand(program: Command, ctx: CliContext): void {
  const role = program
    .command('role')
    .description('grant, revoke and list the roles a server keeps for signed-in people')
    .addHelpText('after', EXAMPLES);
  granteeOptions(role.command('grant').description('grant a user or a group a role'))
    .addOption(roleOption('the role to grant', true))
    .action(async (flags: RoleFlags) => {
      const { runRoleGrant } = await import('../run-role.js');
      ctx.setExitCode(await runRoleGrant(flags, ctx));
    });
  granteeOptions(role.command('revoke').description('revoke a role the store grants a user or a group'))
    .addOption(roleOption('the role to revoke (default: every role the store grants them)', false))
    .action(async (flags: RoleFlags) => {
      const { runRoleRevoke } = await import('../run-role.js');
      ctx.setExitCode(await runRoleRevoke(flags, ctx));
    });
  granteeOptions(role.command('list').description('list the grants (only of that user, group or role)'))
    .addOption(roleOption('only grants of this role', false))
    .option('--json', 'print them as one JSON array')
    .action(async (flags: RoleFlags & { json?: boolean }) => {
      const { runRoleList } = await import('../run-role.js');
      ctx.setExitCode(await runRoleList(flags, ctx));
    });
}
