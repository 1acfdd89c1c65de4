import os from 'node:os';
import path from 'node:path';
import type { AuditEntry } from '../server/audit/audit-entry.js';
import { openAuditLog } from '../server/audit/open-audit-log.js';
import { parseAuditLine, verifyAuditChain } from '../server/audit/verify-audit-chain.js';
import { defaultServerDataDir } from '../server/default-data-dir.js';
import { AttractorError } from '../shared/errors.js';
import type { CliContext } from './cli-context.js';
import type { AuditFlags } from './commands/audit.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import { formatAuditTable } from './format-audit-table.js';

/** `attractor audit`: the trail's entries, or with `--verify` whether its chain holds. */
export async function runAudit(flags: AuditFlags, ctx: CliContext): Promise<number> {
  const since = sinceDate(flags.since);
  const dataDir = flags.dataDir
    ? path.resolve(ctx.io.cwd, flags.dataDir)
    : defaultServerDataDir(ctx.io.cwd, ctx.io.env, os.homedir());
  const log = await openAuditLog({ dataDir, store: flags.store });
  let lines: string[];
  try {
    lines = await log.lines();
  } finally {
    await log.close();
  }
  const verdict = verifyAuditChain(lines);
  if (flags.verify) {
    if (!verdict.ok) {
      ctx.io.stderr(`attractor audit: ${log.where}: ${verdict.break.message}.\n`);
      return EXIT_FAILURE;
    }
    ctx.io.stdout(`${log.where}: ${verdict.entries.length} entries, chain intact; head ${verdict.head}\n`);
    return EXIT_OK;
  }
  // A broken chain still prints every entry that parses (the break is named): what is there to read.
  const entries = lines
    .map(parseAuditLine)
    .filter((e): e is AuditEntry => e !== undefined && (since === undefined || Date.parse(e.at) >= since));
  if (flags.json) ctx.io.stdout(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  else
    ctx.io.stdout(entries.length === 0 ? `No audit entries in ${log.where}.\n` : formatAuditTable(entries));
  if (verdict.ok) return EXIT_OK;
  ctx.io.stderr(`attractor audit: ${log.where}: ${verdict.break.message}; run with --verify.\n`);
  return EXIT_FAILURE;
}

function sinceDate(since: string | undefined): number | undefined {
  if (since === undefined) return undefined;
  const ms = Date.parse(since);
  if (Number.isNaN(ms)) {
    throw new AttractorError(
      'BAD_FLAG',
      `--since ${since}: not a date (e.g. 2026-11-01 or 2026-11-01T09:30:00Z).`,
    );
  }
  return ms;
}
