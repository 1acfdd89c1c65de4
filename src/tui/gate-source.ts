import type { Answer, Question } from '../actors/interviewers/interviewer.js';

/** A human-gate question waiting for this TUI to answer it. */
export interface PendingGate {
  id: string;
  question: Question;
  /** Epoch ms the question was asked (for the countdown). */
  askedAt: number;
  /** Gives the answer; returns why it could not be given (the question closed meanwhile), if so. */
  answer(answer: Answer): string | undefined;
}

/**
 * Where the TUI learns about questions it may answer: the run's own interviewer (gate-broker.ts) or,
 * for `attach`, the run directory's question files (watch-question-files.ts).
 */
export interface GateSource {
  current(): PendingGate | undefined;
  subscribe(listener: () => void): () => void;
}
