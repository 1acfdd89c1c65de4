import { killGroup } from '../../shared/process/process-group.js';

/**
 * SIGTERM to the group, SIGKILL after `graceMs` if any member is still there. Resolves once the kill was
 * sent (or nothing was left); the timer does not hold the event loop open.
 */
export function terminateProcessGroup(pid: number, graceMs: number): Promise<void> {
  if (!killGroup(pid, 'SIGTERM')) return Promise.resolve();
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (!killGroup(pid, 0)) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started >= graceMs) {
        clearInterval(poll);
        killGroup(pid, 'SIGKILL');
        resolve();
      }
    }, 25);
    poll.unref();
  });
}
