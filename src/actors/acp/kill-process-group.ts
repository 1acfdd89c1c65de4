/** Signal every process of the group led by `pid`; false when none is left (ESRCH) or not allowed. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the group, SIGKILL after `graceMs` if any member is still there. Resolves once the kill was
 * sent (or nothing was left); the timer does not hold the event loop open.
 */
export function terminateProcessGroup(pid: number, graceMs: number): Promise<void> {
  if (!signalProcessGroup(pid, 'SIGTERM')) return Promise.resolve();
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (!signalProcessGroup(pid, 0)) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started >= graceMs) {
        clearInterval(poll);
        signalProcessGroup(pid, 'SIGKILL');
        resolve();
      }
    }, 25);
    poll.unref();
  });
}
