import { useEffect } from 'react';
import { api } from './api.js';
import type { RunInfo } from './api-types.js';
import { usePoll } from './use-poll.js';

/** The tab's title: how many runs wait for a person, so a background tab says when one needs you. */
export function waitingTitle(waiting: number): string {
  if (waiting === 0) return 'Attractor';
  return `(${waiting}) ${waiting === 1 ? 'run waits' : 'runs wait'} for you · Attractor`;
}

/** Keeps the title counting the runs waiting for a person (checked every five seconds). */
export function useWaitingTitle(): void {
  const { data } = usePoll(
    () => api<{ pipelines: RunInfo[] }>('/pipelines?status=waiting&limit=100'),
    5000,
    [],
  );
  const waiting = data?.pipelines.length ?? 0;
  useEffect(() => {
    document.title = waitingTitle(waiting);
  }, [waiting]);
}
