import type { MachineConfig, StateConfig } from '../compiler/lower/machine-config.js';
import type { HandlerInvocationInput } from './invocation-runtime.js';
import type { PipelineMachineContext } from './pipeline-context.js';

type InputMapper = (args: { context: PipelineMachineContext }) => HandlerInvocationInput;

/** The compiled config with what plain data cannot carry, for `setup().createMachine()`. */
export interface DecoratedConfig extends Omit<MachineConfig, 'states'> {
  states: Record<string, StateConfig | DecoratedNodeState>;
}

interface DecoratedNodeState extends Omit<StateConfig, 'states'> {
  states: Record<
    string,
    StateConfig | { invoke: Omit<NonNullable<StateConfig['invoke']>, 'input'> & { input: InputMapper } }
  >;
}

/**
 * Give each node's handler invocation an input mapper: the compiled `{ node }` plus the pipeline
 * context as of entering the node. The compiler's config is left untouched (it is cached and shared).
 */
export function decorateConfig(config: MachineConfig): DecoratedConfig {
  const states: DecoratedConfig['states'] = {};
  for (const [key, state] of Object.entries(config.states)) {
    const run = state.states?.['run'];
    const invoke = run?.invoke;
    const node = invoke?.input['node'];
    if (!state.states || !invoke || typeof node !== 'string') {
      states[key] = state;
      continue;
    }
    const input: InputMapper = ({ context }) => ({ node, context });
    states[key] = { ...state, states: { ...state.states, run: { ...run, invoke: { ...invoke, input } } } };
  }
  return { ...config, states };
}
