export interface CombinedSignal {
  signal: AbortSignal;
  /** Detach from the sources; call when the work the signal guards is over. */
  dispose(): void;
}

/**
 * Like `AbortSignal.any`, but detachable. On Node 20, `AbortSignal.any` leaves a WeakRef (and keeps the
 * combined signal reachable) in every source for ever; with a run-long source such as the engine's
 * "abort everything" signal that is one leaked signal per node step.
 */
export function anySignal(sources: readonly AbortSignal[]): CombinedSignal {
  const controller = new AbortController();
  const already = sources.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, dispose() {} };
  }
  const listeners = sources.map((source) => {
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  return {
    signal: controller.signal,
    dispose() {
      for (const remove of listeners) remove();
    },
  };
}
