import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';

/** The file a manager loop's steering message goes to, in the stage directory of the child's running node. */
export const STEERING_FILE = 'steering.md';

/**
 * Steering writes instructions into the child's active stage directory. The file holds the
 * latest message (replaced atomically, so a reader never sees half of one); the agent working in that
 * stage picks it up between tool rounds.
 */
export function writeSteering(stageDir: string, message: string): string {
  mkdirSync(stageDir, { recursive: true });
  const path = join(stageDir, STEERING_FILE);
  writeFileAtomic(path, message.endsWith('\n') ? message : `${message}\n`, { durable: false });
  return path;
}

/**
 * Delivers steering messages that appear in a stage directory while its node runs (the agent backend
 * hands them to its session, which injects them between tool rounds). A delivered message is moved to
 * `steering.md.delivered`, so it is given once and a later visit of the node does not see it again.
 * Polls (every `intervalMs`): the writer may be another process, and fs.watch is unreliable across
 * platforms. Returns the function that stops watching.
 */
export function watchSteering(
  stageDir: string,
  deliver: (message: string) => void,
  intervalMs = 250,
): () => void {
  const path = join(stageDir, STEERING_FILE);
  const check = (): void => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
      renameSync(path, `${path}.delivered`);
    } catch {
      return; // none yet (or taken between the read and the rename: then it is read next time)
    }
    if (text.trim() !== '') deliver(text.trim());
  };
  check();
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
