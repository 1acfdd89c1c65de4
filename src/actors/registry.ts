import type { HandlerHook } from './handler-hook.js';
import { HandlerNotFoundError } from './handler-not-found-error.js';
import type { NodeHandler } from './handler-types.js';
import { codergenHandler } from './handlers/codergen.js';
import { conditionalHandler } from './handlers/conditional.js';
import { exitHandler } from './handlers/exit.js';
import { fanInHandler } from './handlers/fan-in.js';
import { managerLoopHandler } from './handlers/manager-loop.js';
import { parallelHandler } from './handlers/parallel.js';
import { startHandler } from './handlers/start.js';
import { toolHandler } from './handlers/tool.js';
import { waitHumanHandler } from './handlers/wait-human.js';

/**
 * Handler type → handler. Unknown types fall back to the default handler (codergen in the default
 * registry), as unknown shapes do, so a custom `type` without a registration still runs.
 */
export class HandlerRegistry {
  readonly #handlers = new Map<string, NodeHandler>();
  #hooks: readonly HandlerHook[] = [];
  defaultHandler: NodeHandler | undefined;

  constructor(defaultHandler?: NodeHandler, hooks: readonly HandlerHook[] = []) {
    this.defaultHandler = defaultHandler;
    this.#hooks = Object.freeze([...hooks]);
  }

  /**
   * Add a hook run around every handler invocation of runs using this registry, their parallel branches
   * and child pipelines included (see HandlerHook); returns the registry for chaining.
   */
  addHook(hook: HandlerHook): this {
    // A new frozen list: an invocation that already took the list keeps running the hooks it took.
    this.#hooks = Object.freeze([...this.#hooks, hook]);
    return this;
  }

  /** The hooks, in registration order (read-only). */
  get hooks(): readonly HandlerHook[] {
    return this.#hooks;
  }

  /** Register (or replace) the handler of a type; returns the registry for chaining. */
  register(type: string, handler: NodeHandler): this {
    this.#handlers.set(type, handler);
    return this;
  }

  /** The handler of `type`, else the default handler. Throws HandlerNotFoundError when neither exists. */
  get(type: string): NodeHandler {
    const handler = this.#handlers.get(type) ?? this.defaultHandler;
    if (!handler) throw new HandlerNotFoundError(type);
    return handler;
  }

  has(type: string): boolean {
    return this.#handlers.has(type);
  }

  /** Registered types, in registration order. */
  types(): string[] {
    return [...this.#handlers.keys()];
  }
}

/**
 * A registry holding every built-in handler, with codergen as the fallback.
 *
 * @example
 * const registry = createDefaultRegistry().register('lint', lintHandler);
 * await registry.get(node.handler)(input);
 */
export function createDefaultRegistry(): HandlerRegistry {
  return new HandlerRegistry(codergenHandler)
    .register('start', startHandler)
    .register('exit', exitHandler)
    .register('codergen', codergenHandler)
    .register('conditional', conditionalHandler)
    .register('wait.human', waitHumanHandler)
    .register('parallel', parallelHandler)
    .register('parallel.fan_in', fanInHandler)
    .register('tool', toolHandler)
    .register('stack.manager_loop', managerLoopHandler);
}
