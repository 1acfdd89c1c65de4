import type { HandlerRegistry } from '../registry.js';
import { conditionalHandler } from './conditional.js';
import { exitHandler } from './exit.js';
import { startHandler } from './start.js';

const ROUTING = new Set([startHandler, exitHandler, conditionalHandler]);
/** The types the default registry maps to those handlers. */
const ROUTING_TYPES = new Set(['start', 'exit', 'conditional']);

/**
 * Whether the node runs a built-in routing handler (start, exit, conditional): one that does nothing but
 * succeed and writes nothing in its folder. Decided by the handler the registry gives for the type (none:
 * the default's), so a type a registry overrides with one that does work is not routing.
 */
export function runsBuiltInRouting(registry: HandlerRegistry | undefined, handlerType: string): boolean {
  if (!registry) return ROUTING_TYPES.has(handlerType);
  try {
    return ROUTING.has(registry.get(handlerType));
  } catch {
    return false;
  }
}
