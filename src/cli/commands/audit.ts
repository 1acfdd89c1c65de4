import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

const EXAMPLES = `
Prints the server's audit trail: every state-changing request (start, answer, cancel, resume, fork,
sign-in, token and role changes) with who sent it, when, what it was about and how it ended (ok, or
refused with its status and error code). Read from --data-dir's audit.jsonl, or from the PostgreSQL
store (--store) the servers share; without either, from the data directory \`attractor serve\` uses
by default in this folder.

--verify checks the hash chain: each entry carries the SHA-256 of its content and of the entry
before it, so an edited, deleted, inserted or reordered entry breaks it. It exits 1 naming the
first line that does not follow, and why; else it prints the chain's head hash: kept elsewhere, it
shows later whether entries were cut off the end. See docs/guides/server.md.

Examples:
  $ attractor audit --data-dir .attractor-server
  $ attractor audit --store postgres://attractor@db.internal/attractor --since 2026-11-01 --json
  $ attractor audit --data-dir .attractor-server --verify
`;

export interface AuditFlags {
  dataDir?: string;
  store?: string;
  verify?: boolean;
  since?: string;
  json?: boolean;
}

export function registerAuditCommand(program: Command, ctx: CliContext): void {
  program
    .command('audit')
    .description("print or verify a server's audit trail (who did what, and how it ended)")
    .option('--data-dir <dir>', "the server's data directory (its audit.jsonl)")
    .option('--store <url>', 'the PostgreSQL store the servers use (postgres://user@host:port/db)')
    .option('--verify', 'check the hash chain; exit 1 naming the first bad line')
    .option('--since <date>', 'only entries at or after this date or time (ISO 8601)')
    .option('--json', 'print one JSON entry a line')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: AuditFlags) => {
      const { runAudit } = await import('../run-audit.js');
      ctx.setExitCode(await runAudit(flags, ctx));
    });
}
