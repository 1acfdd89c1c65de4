import { assign, fromPromise, setup } from 'xstate';

export type SessionState = 'idle' | 'processing' | 'awaiting_input' | 'closed';

export interface ProcessInputResult {
  /** True when the session must close afterwards (abort, authentication failure). */
  close: boolean;
}

export type SessionLifecycleEvent =
  | { type: 'SUBMIT'; input: string }
  /** Close now when idle; while processing, the running input is aborted and finishes its cleanup first. */
  | { type: 'CLOSE' };

/**
 * The session's lifecycle: IDLE → PROCESSING on SUBMIT, back to IDLE when
 * the input (and its queued follow-ups) is done, CLOSED on abort or shutdown; AWAITING_INPUT is reserved.
 * PROCESSING invokes `processInput`, the agentic loop, which the session provides with `.provide()`; stopping
 * that actor (the machine stopped, or its parent) aborts the loop through the promise actor's signal.
 */
export const sessionLifecycleMachine = setup({
  types: {} as {
    context: { sessionId: string; depth: number; inputs: number };
    input: { sessionId: string; depth: number };
    events: SessionLifecycleEvent;
  },
  actors: {
    processInput: fromPromise<ProcessInputResult, { text: string }>(async () => {
      throw new Error('processInput is provided by the session');
    }),
  },
  guards: {
    mustClose: (_, params: { output: ProcessInputResult }) => params.output.close,
  },
}).createMachine({
  id: 'agentSession',
  context: ({ input }) => ({ sessionId: input.sessionId, depth: input.depth, inputs: 0 }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        SUBMIT: {
          target: 'processing',
          actions: assign({ inputs: ({ context }) => context.inputs + 1 }),
        },
        CLOSE: 'closed',
      },
    },
    processing: {
      invoke: {
        src: 'processInput',
        input: ({ event }) => ({ text: event.type === 'SUBMIT' ? event.input : '' }),
        onDone: [
          {
            guard: { type: 'mustClose', params: ({ event }) => ({ output: event.output }) },
            target: 'closed',
          },
          { target: 'idle' },
        ],
        // The loop reports its own failures as ERROR events; a throw here is a bug, and the session survives it.
        onError: 'idle',
      },
    },
    awaiting_input: {
      on: { SUBMIT: 'processing', CLOSE: 'closed' },
    },
    closed: { type: 'final' },
  },
});
