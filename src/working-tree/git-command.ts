import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { concurrencyLimit } from '../shared/concurrency-limit.js';
import { AttractorError } from '../shared/errors.js';

/** Where one git command looks: the git directory, the files it records, and the index it uses. */
export interface GitPlace {
  /** The git directory the command uses (`GIT_DIR`): the run's own, never discovered from the folder. */
  gitDir: string;
  /** The folder whose files are recorded (`GIT_WORK_TREE`); none: a command on objects and refs only. */
  workTree?: string;
  /** The index (`GIT_INDEX_FILE`); none: the git directory's own. */
  index?: string;
  /** Where objects are written (`GIT_OBJECT_DIRECTORY`): the user's repository's, when the run has one. */
  objects?: string;
}

export interface GitCommandOptions {
  /** Written to the command's stdin. */
  input?: string | Buffer;
  /** Output past this is an error (default 64 MB). */
  maxBuffer?: number;
  /** Exit codes that are answers, not failures (`merge-tree` exits 1 on a conflict): stdout is resolved. */
  answerCodes?: readonly number[];
}

/**
 * Settings that would make git run a program, turned off for every command the engine runs: a run's
 * code can write `.git/config`, hooks and `.gitattributes` in a folder it works in (decision 0331).
 * The user's repository configuration is never read at all (`GIT_DIR` is the run's own); these cover
 * the run's own git directory and the one command that must use the user's (`git worktree`).
 */
const DISARMED = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.sshCommand=false',
  'diff.external=',
  'gc.auto=0',
  'maintenance.auto=false',
  'protocol.allow=never',
  'protocol.file.allow=always',
  'advice.detachedHead=false',
  // Writing a branch's or a takeover's folder (thousands of files) on every core, not one.
  'checkout.workers=0',
  'checkout.thresholdForParallelism=100',
].flatMap((setting) => ['-c', setting]);

const IDENTITY = { name: 'attractor', email: 'attractor@localhost' };

/** The environment of a git command: the process's, without any GIT_* variable, and no user or system config. */
function gitEnv(place: GitPlace): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    GIT_DIR: place.gitDir,
    ...(place.workTree ? { GIT_WORK_TREE: place.workTree } : {}),
    ...(place.index ? { GIT_INDEX_FILE: place.index } : {}),
    ...(place.objects ? { GIT_OBJECT_DIRECTORY: place.objects } : {}),
  };
}

/**
 * Git processes of this process at once: a 32-way isolated fan-out, or twenty of them, would otherwise
 * start hundreds together, each slower than the last as they fight for the cores.
 */
const gitSlot = concurrencyLimit(Math.max(4, 2 * availableParallelism()));

/** A git command that failed: its arguments and what git said. */
export class GitCommandError extends AttractorError {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    cause: unknown,
  ) {
    const said = stderr.trim().split('\n').slice(-3).join(' ');
    super('GIT_FAILED', `git ${args[0] ?? ''} failed${said ? `: ${said}` : ''}.`, { cause });
  }
}

/**
 * The one way the engine runs git: `execFile` (no shell), off the event loop, with command-running
 * settings disarmed and the user's configuration unread. Resolves with stdout as text.
 */
export function git(
  place: GitPlace,
  args: readonly string[],
  options: GitCommandOptions = {},
): Promise<string> {
  return gitBuffer(place, args, options).then((out) => out.toString('utf8'));
}

/** `git`, with stdout as bytes (bundles, file contents). */
export async function gitBuffer(
  place: GitPlace,
  args: readonly string[],
  options: GitCommandOptions = {},
): Promise<Buffer> {
  return (await gitAnswer(place, args, options)).stdout;
}

/**
 * `git`, with its exit code: a code in `options.answerCodes` resolves (`merge-tree` says "conflicts"
 * with 1); any other failure rejects.
 */
export function gitAnswer(
  place: GitPlace,
  args: readonly string[],
  options: GitCommandOptions = {},
): Promise<{ code: number; stdout: Buffer }> {
  return gitSlot(
    () =>
      new Promise<{ code: number; stdout: Buffer }>((resolve, reject) => {
        const child = execFile(
          'git',
          [...DISARMED, ...args],
          {
            cwd: place.workTree ?? place.gitDir,
            env: gitEnv(place),
            encoding: 'buffer',
            maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
          },
          (error, stdout, stderr) => {
            const code = error ? error.code : 0;
            if (typeof code === 'number' && (code === 0 || options.answerCodes?.includes(code)))
              resolve({ code, stdout });
            else reject(new GitCommandError(args, stderr.toString('utf8'), error));
          },
        );
        if (options.input !== undefined) child.stdin?.end(options.input);
      }),
  );
}
