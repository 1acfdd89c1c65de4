import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';

/** The file a manager loop's steering message goes to, in the stage directory of the child's running node. */
export const STEERING_FILE = 'steering.md';

/**
 * Spec §4.11: steering writes instructions into the child's active stage directory. The file holds the
 * latest message (replaced atomically, so a reader never sees half of one); the agent working in that
 * stage picks it up between tool rounds.
 */
export function writeSteering(stageDir: string, message: string): string {
  mkdirSync(stageDir, { recursive: true });
  const path = join(stageDir, STEERING_FILE);
  writeFileAtomic(path, message.endsWith('\n') ? message : `${message}\n`, { durable: false });
  return path;
}
