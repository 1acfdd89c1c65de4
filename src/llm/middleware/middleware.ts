import type { Request, Response, StreamEvent } from '../types.js';

export type CompleteNext = (request: Request) => Promise<Response>;
export type StreamNext = (request: Request) => AsyncIterable<StreamEvent>;

/**
 * A client middleware. `beforeRequest` runs in registration order, `afterResponse` in reverse; `wrapStream`
 * wraps streams so the first registered middleware is the outermost (it sees events last, like afterResponse).
 * The `around*` hooks sit between those and the retrying adapter call and may answer without calling `next`
 * (replay does); they see the final outcome of a call, retries included.
 */
export interface Middleware {
  readonly name?: string;
  beforeRequest?(request: Request): Request | Promise<Request>;
  afterResponse?(response: Response, request: Request): Response | Promise<Response>;
  wrapStream?(stream: AsyncIterable<StreamEvent>, request: Request): AsyncIterable<StreamEvent>;
  aroundComplete?(request: Request, next: CompleteNext): Promise<Response>;
  aroundStream?(request: Request, next: StreamNext): AsyncIterable<StreamEvent>;
}
