import type { EventObject } from 'xstate';
import type {
  MachineConfig,
  NamedRef,
  StateConfig,
  TransitionConfig,
} from '../compiler/lower/machine-config.js';
import { StageStatusSchema } from '../compiler/outcome.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import type { HandlerActorOutput, HandlerInvocationInput } from './invocation-runtime.js';
import type { PipelineMachineContext } from './machine-context.js';
import type { HandlerSettlement } from './recorded-outcome.js';

/** The names a config may use: the implementations given to `setup()`. */
export interface Implementations {
  guards: object;
  actions: object;
  actors: object;
}

type Args = { context: PipelineMachineContext; event: EventObject };

/** The compiled config typed for `setup().createMachine()`, and the check of the names it uses. */
export interface DecoratedConfig<TSetupConfig> {
  config: TSetupConfig;
  /** Throws `MACHINE_CONFIG_INVALID` when the config names a guard, action or actor `impl` lacks. */
  verify(impl: Implementations): void;
}

/**
 * The one place where the compiler's plain config meets `setup()`'s types.
 *
 * The config is data built at run time from a DOT file (or parsed from the JSON `compile --format
 * xstate` prints), so TypeScript cannot know that its strings name the guards, actions and actors
 * given to `setup()`. That is checked at run time instead: the walk below checks the config's shape and
 * records every reference, and `verify` refuses a config naming something the machine does not
 * implement, with a message saying where. What plain data cannot carry is added:
 * - each invocation's `input` becomes a mapper giving the actor its node and the pipeline context as
 *   of entering the state;
 * - the actions of an invocation's `onDone`/`onError` transitions (which record the outcome) get how
 *   the actor ended as `params.settlement`: `{ output }` (shape-checked: setup() types only the
 *   machine's own events, so named actions never read `event.output`) or `{ error }`.
 * The compiler's config is left untouched (it is cached and shared). The result is then declared to be
 * the config type `setup()` expects (`TSetupConfig`): the only cast of the seam.
 */
export function decorateConfig<TSetupConfig>(config: MachineConfig): DecoratedConfig<TSetupConfig> {
  const used: Array<{ kind: keyof Implementations; name: unknown; where: string }> = [];
  const refs = (list: NamedRef[] | undefined, where: string): void => {
    for (const a of list ?? []) used.push({ kind: 'actions', name: a?.type, where });
  };
  const transition = (t: TransitionConfig, where: string): TransitionConfig => {
    if (typeof t !== 'object' || t === null) throw invalid(where, 'has a transition that is not an object');
    if (t.guard) used.push({ kind: 'guards', name: t.guard.type, where });
    refs(t.actions, where);
    return t;
  };
  // The actions of an invocation's `onDone`/`onError` (the recording ones) get how the actor ended.
  const settled = (
    list: TransitionConfig[] | TransitionConfig,
    where: string,
    failed: boolean,
    handler: boolean,
  ) => {
    const settlementOf = (event: EventObject): HandlerSettlement =>
      failed ? { error: 'error' in event ? event.error : undefined } : doneWith(event, where, handler);
    const withSettlement = (ref: NamedRef) => ({
      type: ref.type,
      params: printsAs(({ event }: Args) => ({ ...ref.params, settlement: settlementOf(event) }), ref.params),
    });
    // A config printed before transitions became lists (or written by hand) may give one transition.
    return (Array.isArray(list) ? list : [list]).map((t) => {
      transition(t, where);
      return { ...t, ...(t.actions ? { actions: t.actions.map(withSettlement) } : {}) };
    });
  };
  const state = (s: StateConfig, where: string): unknown => {
    if (typeof s !== 'object' || s === null) throw invalid(where, 'is not a state object');
    refs(s.entry, where);
    for (const t of s.always ?? []) transition(t, where);
    for (const t of Object.values(s.after ?? {})) transition(t, where);
    const states = s.states
      ? Object.fromEntries(Object.entries(s.states).map(([k, c]) => [k, state(c, `${where}.${k}`)]))
      : undefined;
    const invoke = s.invoke;
    if (!invoke) return states ? { ...s, states } : s;
    used.push({ kind: 'actors', name: invoke.src, where });
    // A node's handler must end with an outcome; other actors (the retry backoff) end with nothing.
    const handlerInvoke = typeof invoke.src === 'string' && invoke.src.startsWith('handler.');
    const node = invoke.input?.['node'];
    if (typeof node !== 'string') throw invalid(where, 'invokes an actor without naming its node');
    return {
      ...s,
      ...definedFields({ states }),
      invoke: {
        ...invoke,
        input: printsAs(({ context }: Args): HandlerInvocationInput => ({ node, context }), invoke.input),
        onDone: settled(invoke.onDone, where, false, handlerInvoke),
        onError: settled(invoke.onError, where, true, handlerInvoke),
      },
    };
  };
  if (typeof config !== 'object' || config === null || typeof config.states !== 'object')
    throw invalid('the top level', 'has no states');
  for (const t of Object.values(config.on ?? {})) transition(t, config.id);
  const states = Object.fromEntries(
    Object.entries(config.states).map(([key, s]) => [key, state(s, `${config.id}.${key}`)]),
  );
  return {
    config: { ...config, states } as unknown as TSetupConfig,
    verify(impl) {
      for (const { kind, name, where } of used)
        if (typeof name !== 'string' || !Object.hasOwn(impl[kind], name))
          throw invalid(
            where,
            `names ${kind.slice(0, -1)} ${JSON.stringify(name)}, which the pipeline machine does not implement`,
          );
    },
  };
}

/**
 * A function the config needs that serialises (JSON.stringify calls a function's `toJSON` too) as the
 * plain data it was made from: the live machine's definition — what an inspector is sent — shows every
 * guard's and action's params and every invocation's input exactly as `compile --format xstate` prints
 * them, not `{ "type": "params" }`.
 */
function printsAs<F extends (args: Args) => unknown>(fn: F, data: unknown): F {
  return Object.assign(fn, { toJSON: () => data });
}

function invalid(where: string, what: string): AttractorError {
  return new AttractorError('MACHINE_CONFIG_INVALID', `the machine config at ${where} ${what}.`);
}

/**
 * A done event's output, checked to be what handler actors resolve with: `{ outcome: { status } }`
 * with a stage status (nothing at all only from an actor that is not a node's handler). Anything else
 * (an embedder's actor resolving with its own shape, or with nothing) settles the node as an error, so
 * it fails there and routes like any FAIL, its failure reason saying why.
 */
function doneWith(event: EventObject, where: string, handler: boolean): HandlerSettlement {
  const output: unknown = 'output' in event ? event.output : undefined;
  if ((output === undefined && !handler) || isHandlerOutput(output)) return { output };
  return {
    error: new AttractorError(
      'HANDLER_OUTPUT_INVALID',
      `the actor invoked at ${where} finished without an outcome ({ outcome: { status } }, status one of ${StageStatusSchema.options.join(', ')}).`,
    ),
  };
}

/** The shape recording relies on (the status, and the parts it iterates or merges); not a full parse. */
function isHandlerOutput(value: unknown): value is HandlerActorOutput {
  if (typeof value !== 'object' || value === null || !('outcome' in value)) return false;
  if ('logs' in value && value.logs !== undefined && !Array.isArray(value.logs)) return false;
  const { outcome } = value;
  if (typeof outcome !== 'object' || outcome === null || !('status' in outcome)) return false;
  const updates = 'context_updates' in outcome ? outcome.context_updates : undefined;
  if (updates !== undefined && (typeof updates !== 'object' || updates === null || Array.isArray(updates)))
    return false;
  return StageStatusSchema.safeParse(outcome.status).success;
}
