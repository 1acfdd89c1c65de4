import { realpathSync } from 'node:fs';
import path from 'node:path';

/** How a user lifts the walls, said after each explanation. */
export const OFF_HINT =
  'sandbox="off" on the node or graph lifts the walls (serve/worker: only when started with --unsandboxed)';

export interface SandboxNoteInput {
  /** The failed command's stderr (its end is enough). */
  stderr: string;
  /** Connections the egress proxy refused. */
  denials: readonly string[];
  egress: readonly string[];
  maxProcesses: number;
  /** Folders the command sees (host paths): a missing path found elsewhere on the host is the sandbox's doing. */
  visible: readonly string[];
  hidden: readonly string[];
  /** The command's working directory, for the relative paths its errors name. */
  cwd: string;
}

const under = (dir: string, target: string): boolean => target === dir || target.startsWith(`${dir}/`);

const MISSING = /([^\s:'"‘’]+)['"’]?: (?:No such file or directory|Directory nonexistent)/g;

/** Where `target` really is on the host: its nearest existing ancestor, links resolved; undefined if none. */
function hostPlace(target: string): string | undefined {
  for (let at = target; ; at = path.dirname(at)) {
    try {
      return realpathSync(at);
    } catch {
      if (path.dirname(at) === at) return undefined;
    }
  }
}

/**
 * A path named as missing that exists on the host (or whose folder does) out of the command's sight: the
 * sandbox's doing. A file missing from the working tree itself is the command's own business.
 */
function hiddenPathNamed(input: SandboxNoteInput): boolean {
  return [...input.stderr.matchAll(MISSING)].some((match) => {
    const named = path.resolve(input.cwd, match[1] ?? '');
    const place = hostPlace(named);
    if (place === undefined || place === '/') return false;
    if (input.hidden.some((dir) => under(dir, named) || under(dir, place))) return true;
    return !input.visible.some((dir) => under(dir, place));
  });
}

const NETWORK =
  /Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH|Connection refused|ECONNREFUSED|Failed to connect|Couldn't connect/i;

/** The path a "Read-only file system" message names, when it names one. */
function readOnlyPath(stderr: string): string | undefined {
  const match =
    /(?:cannot (?:create|touch|remove|open)[^'"]*['"‘]|: )(\/[^'"’:\s]*)['"’]?: Read-only file system/.exec(
      stderr,
    );
  return match?.[1];
}

/**
 * The lines the engine appends to a failed sandboxed command's stderr, saying what the sandbox blocked
 * and how to allow it; undefined when nothing in the failure points at the sandbox.
 */
export function sandboxNote(input: SandboxNoteInput): string | undefined {
  const { stderr } = input;
  const lines: string[] = [];
  for (const denied of new Set(input.denials)) {
    const host = denied.replace(/:\d+$/, '');
    lines.push(
      `sandbox: blocked a connection to ${denied}; allow it with sandbox_egress="${host}" (graph or node)`,
    );
  }
  // A file mounted read-only over (git's config) is busy to a rename, rather than read-only.
  if (/Read-only file system|Device or resource busy/i.test(stderr)) {
    const where = readOnlyPath(stderr);
    lines.push(
      `sandbox: ${where ?? 'that folder'} is read-only in the sandbox; only the working tree, /tmp and HOME are writable; ${OFF_HINT}`,
    );
  }
  if (lines.length === 0 && NETWORK.test(stderr)) {
    lines.push(
      input.egress.length === 0
        ? 'sandbox: network is off; name hosts with sandbox_egress="host,…" (graph or node)'
        : `sandbox: only ${input.egress.join(', ')} can be reached (sandbox_egress), through the proxy in HTTP_PROXY/HTTPS_PROXY`,
    );
  }
  if (/Resource temporarily unavailable|Cannot fork|fork: retry/i.test(stderr)) {
    lines.push(`sandbox: the command reached the sandbox's limit of ${input.maxProcesses} processes`);
  }
  if (/No such process/i.test(stderr)) {
    lines.push('sandbox: processes outside the sandbox cannot be seen or signalled from inside it');
  }
  if (/Operation not permitted|unshare failed|setresuid failed|cannot set groups/i.test(stderr)) {
    lines.push(
      `sandbox: commands run without privileges (no capabilities, setuid or new namespaces); ${OFF_HINT}`,
    );
  }
  if (lines.length === 0 && hiddenPathNamed(input)) {
    lines.push(
      `sandbox: only the working tree, /tmp, an empty HOME and the system and toolchain folders are visible; ${OFF_HINT}`,
    );
  }
  return lines.length === 0 ? undefined : lines.join('\n');
}
