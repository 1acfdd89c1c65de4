import type { HandlerSettlement } from './recorded-outcome.js';

/** The params the compiled config gives guards and actions (machine config is plain data). */
export type NodeParams = { node: string };
/** The recording actions of a handler's `onDone`/`onError` also get how it ended (added by decorateConfig). */
export type RecordParams = NodeParams & { settlement?: HandlerSettlement };
export type EdgeParams = { node: string; edge: number };
export type JumpParams = { node: string; target: string };
