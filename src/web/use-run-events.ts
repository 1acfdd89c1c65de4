import { useEffect, useRef, useState } from 'react';
import type { PipelineEvent } from '../shared/pipeline-event.js';
import { followEvents } from './api.js';

/**
 * A run's events from its stream, replayed from the start and followed live. Text deltas come many a
 * second, so the page re-renders at most once an animation frame, not once an event.
 */
export function useRunEvents(
  id: string,
  attempt = 0,
): { events: readonly PipelineEvent[]; done: string | undefined } {
  const buffer = useRef<PipelineEvent[]>([]);
  const [events, setEvents] = useState<readonly PipelineEvent[]>([]);
  const [done, setDone] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt follows the stream again
  useEffect(() => {
    buffer.current = [];
    setEvents([]);
    setDone(undefined);
    let frame = 0;
    const flush = (): void => {
      frame = 0;
      setEvents([...buffer.current]);
    };
    const stop = followEvents(id, 0, {
      onEvents: (batch) => {
        buffer.current.push(...batch);
        if (frame === 0) frame = requestAnimationFrame(flush);
      },
      onDone: (status) => setDone(status),
    });
    return () => {
      stop();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [id, attempt]);
  return { events, done };
}
