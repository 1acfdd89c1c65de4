import { AttractorError } from '../../shared/errors.js';

/**
 * The code of the reason a gate's wait is aborted with when its `human.timeout` passes: the question
 * is closed for good (the answer channel records it so), unlike a run that stops, whose question
 * stays open for the resumed gate.
 */
export const GATE_TIMED_OUT = 'GATE_TIMED_OUT';

export const gateTimedOut = (ms: number): AttractorError =>
  new AttractorError(GATE_TIMED_OUT, `human gate timed out after ${ms} ms`);

export const isGateTimeout = (reason: unknown): boolean =>
  AttractorError.isInstance(reason) && reason.code === GATE_TIMED_OUT;
