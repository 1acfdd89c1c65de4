import { execFile } from 'node:child_process';

/** What the model is told about where it works (the `<environment>` block of the system prompt). */
export interface EnvironmentInfo {
  workingDirectory: string;
  platform: string;
  osVersion?: string;
  /** YYYY-MM-DD. */
  date: string;
  model: string;
  isGitRepository: boolean;
  gitRoot?: string;
  gitBranch?: string;
  /** Short status counts, e.g. "2 modified, 1 untracked". */
  gitStatus?: string;
  /** Subjects of the last commits, newest first. */
  recentCommits?: string[];
}

const GIT_TIMEOUT_MS = 5_000;
const RECENT_COMMITS = 5;

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      resolve(error ? undefined : stdout.trimEnd());
    });
  });
}

/** Counts of `git status --porcelain` lines by kind, e.g. "1 modified, 2 untracked", or "clean". */
export function summarizeGitStatus(porcelain: string): string {
  const counts = new Map<string, number>();
  for (const line of porcelain.split('\n')) {
    if (line.trim() === '') continue;
    const code = line.slice(0, 2);
    const kind =
      code === '??'
        ? 'untracked'
        : code.includes('A')
          ? 'added'
          : code.includes('D')
            ? 'deleted'
            : code.includes('R')
              ? 'renamed'
              : 'modified';
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  if (counts.size === 0) return 'clean';
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

/**
 * Gathers the environment facts for a working directory. Git is asked directly (not through the agent's shell
 * tool) because this is the session's own bookkeeping, not a model action; a missing git just means "not a repo".
 */
export async function gatherEnvironmentInfo(options: {
  workingDirectory: string;
  platform: string;
  model: string;
  osVersion?: string;
  now?: Date;
}): Promise<EnvironmentInfo> {
  const { workingDirectory: cwd } = options;
  const info: EnvironmentInfo = {
    workingDirectory: cwd,
    platform: options.platform,
    date: (options.now ?? new Date()).toISOString().slice(0, 10),
    model: options.model,
    isGitRepository: false,
  };
  if (options.osVersion !== undefined) info.osVersion = options.osVersion;
  const root = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (root === undefined) return info;
  info.isGitRepository = true;
  info.gitRoot = root;
  const [branch, status, log] = await Promise.all([
    git(cwd, ['rev-parse', '--abbrev-ref', 'HEAD']),
    git(cwd, ['status', '--porcelain']),
    git(cwd, ['log', `-${RECENT_COMMITS}`, '--format=%s']),
  ]);
  if (branch) info.gitBranch = branch;
  if (status !== undefined) info.gitStatus = summarizeGitStatus(status);
  if (log) info.recentCommits = log.split('\n');
  return info;
}

/** The `<environment>` block; pure. */
export function renderEnvironmentBlock(info: EnvironmentInfo): string {
  const lines = [
    `Working directory: ${info.workingDirectory}`,
    `Is git repository: ${info.isGitRepository ? 'yes' : 'no'}`,
  ];
  if (info.gitBranch) lines.push(`Git branch: ${info.gitBranch}`);
  if (info.gitStatus) lines.push(`Git status: ${info.gitStatus}`);
  if (info.recentCommits?.length) {
    lines.push('Recent commits:', ...info.recentCommits.map((subject) => `  - ${subject}`));
  }
  lines.push(`Platform: ${info.platform}`);
  if (info.osVersion) lines.push(`OS version: ${info.osVersion}`);
  lines.push(`Today's date: ${info.date}`, `Model: ${info.model}`);
  return `<environment>\n${lines.join('\n')}\n</environment>`;
}
