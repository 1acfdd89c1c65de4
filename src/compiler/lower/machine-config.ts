/**
 * The plain-data XState config the compiler emits. Only strings name guards, actions, actors and
 * delays; `machines/` attaches the implementations with `setup()`. Kept as our own narrow type so the
 * compiler does not depend on the xstate runtime.
 */
export interface NamedRef {
  type: string;
  params?: Record<string, unknown>;
}

export interface TransitionConfig {
  target?: string;
  guard?: NamedRef;
  actions?: NamedRef[];
  reenter?: boolean;
}

export interface StateConfig {
  type?: 'final' | 'compound' | 'atomic';
  initial?: string;
  meta?: Record<string, unknown>;
  entry?: NamedRef[];
  always?: TransitionConfig[];
  after?: Record<string, TransitionConfig>;
  invoke?: {
    id: string;
    src: string;
    input: Record<string, unknown>;
    /** Tried in order, like `always`. */
    onDone: TransitionConfig[];
    onError: TransitionConfig[];
  };
  states?: Record<string, StateConfig>;
}

export interface MachineConfig {
  id: string;
  initial: string;
  meta: Record<string, unknown>;
  on: Record<string, TransitionConfig>;
  states: Record<string, StateConfig>;
}
