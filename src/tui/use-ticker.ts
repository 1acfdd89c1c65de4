import { useEffect, useState } from 'react';

/** A counter that advances every `ms` while `active`; drives spinners, elapsed time and countdowns. */
export function useTicker(ms: number, active: boolean): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [ms, active]);
  return tick;
}
