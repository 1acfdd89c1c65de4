import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Where `attractor serve` keeps its runs when no `--data-dir` is given: outside the folder it was started
 * in, where its runs work (docs/decisions/0005-what-a-submitted-pipeline-may-do.md).
 * One folder per working directory under the user's state folder,
 * `$XDG_STATE_HOME/attractor/serve/<folder name>-<8 hex of its path>` (`~/.local/state` by default), so
 * servers of two projects never share one and a restarted server finds its runs again.
 */
export function defaultServerDataDir(
  workingDir: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  const resolved = path.resolve(workingDir);
  const stateHome = env['XDG_STATE_HOME'] || path.join(home, '.local', 'state');
  const hash = createHash('sha256').update(resolved).digest('hex').slice(0, 8);
  return path.join(stateHome, 'attractor', 'serve', `${path.basename(resolved) || 'root'}-${hash}`);
}
