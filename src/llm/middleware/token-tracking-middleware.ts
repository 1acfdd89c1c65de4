import { estimateCost } from '../cost.js';
import type { Response, StreamEvent, TokenUsage } from '../types.js';
import { addUsage, createUsage } from '../usage.js';
import type { Middleware } from './middleware.js';

/** Sums token usage and catalog-priced cost over every response and stream that passes through the client. */
export class TokenTrackingMiddleware implements Middleware {
  readonly name = 'token-tracking';
  private usage: TokenUsage = createUsage();
  private cost = 0;
  private unpriced = 0;
  private readonly perModel = new Map<string, TokenUsage>();

  get totalUsage(): TokenUsage {
    return this.usage;
  }

  /** USD at catalog prices; responses of unpriced models are counted in `unpricedResponses`. */
  get totalCost(): number {
    return this.cost;
  }

  get unpricedResponses(): number {
    return this.unpriced;
  }

  get usageByModel(): ReadonlyMap<string, TokenUsage> {
    return this.perModel;
  }

  afterResponse(response: Response): Response {
    this.track(response);
    return response;
  }

  async *wrapStream(stream: AsyncIterable<StreamEvent>): AsyncIterable<StreamEvent> {
    for await (const event of stream) {
      if (event.type === 'finish') this.track(event.response);
      yield event;
    }
  }

  reset(): void {
    this.usage = createUsage();
    this.cost = 0;
    this.unpriced = 0;
    this.perModel.clear();
  }

  private track(response: Response): void {
    this.usage = addUsage(this.usage, response.usage);
    const previous = this.perModel.get(response.model);
    this.perModel.set(
      response.model,
      previous ? addUsage(previous, response.usage) : addUsage(response.usage),
    );
    const cost = estimateCost(response.model, response.usage);
    if (cost === undefined) this.unpriced++;
    else this.cost += cost;
  }
}
