import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Calls `load` now and every `ms` while the page is visible and `active`; `refresh` loads again at once.
 * Live enough for a list (a run's own page follows its event stream, and stops polling once it ended).
 */
export function usePoll<T>(
  load: () => Promise<T>,
  ms: number,
  deps: readonly unknown[],
  active = true,
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
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') tick();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, tick, active, ...deps]);
  return { data, error, refresh: tick };
}
