import { execFile } from 'node:child_process';

/** The oldest git whose commands and flags the run's tree relies on. */
export const MIN_GIT = [2, 30] as const;

export type GitAvailability = { ok: true; version: string } | { ok: false; reason: string };

let checked: Promise<GitAvailability> | undefined;

/** The `git --version` line's numbers, or undefined when it is not one. */
export function parseGitVersion(line: string): [number, number] | undefined {
  const match = /git version (\d+)\.(\d+)/.exec(line);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

function ask(): Promise<GitAvailability> {
  return new Promise((resolve) => {
    execFile('git', ['--version'], { encoding: 'utf8' }, (error, stdout) => {
      if (error) return resolve({ ok: false, reason: 'git was not found on the PATH' });
      const version = parseGitVersion(stdout);
      if (!version) return resolve({ ok: false, reason: `git said "${stdout.trim()}"` });
      const [major, minor] = version;
      const recent = major > MIN_GIT[0] || (major === MIN_GIT[0] && minor >= MIN_GIT[1]);
      resolve(
        recent
          ? { ok: true, version: `${major}.${minor}` }
          : { ok: false, reason: `git ${major}.${minor} is older than ${MIN_GIT.join('.')}` },
      );
    });
  });
}

/** Whether a usable git is on the PATH: asked once per process (the PATH of the first ask). */
export function gitAvailable(): Promise<GitAvailability> {
  checked ??= ask();
  return checked;
}

/** Forget the answer (tests that change the PATH). */
export function forgetGitAvailability(): void {
  checked = undefined;
}
