import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Calls `load` now and every `ms` while the page is visible; `refresh` loads again at once. Live
 * enough for a list (a run's own page follows its event stream instead).
 */
export function usePoll<T>(
  load: () => Promise<T>,
  ms: number,
  deps: readonly unknown[],
): { data: T | undefined; error: string | undefined; refresh: () => void } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const tick = useCallback(() => {
    loadRef.current().then(
      (value) => {
        setData(value);
        setError(undefined);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, []);
  useEffect(() => {
    tick();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') tick();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, tick, ...deps]);
  return { data, error, refresh: tick };
}
