import type { Request, Response, StreamEvent } from '../types.js';
import type { Middleware } from './middleware.js';

export interface LoggingMiddlewareOptions {
  /** Where lines go; defaults to stderr so stdout stays clean for `--json`. */
  log?: (line: string) => void;
}

/** Logs one line per request and per response (model, provider, latency, tokens, finish reason). */
export class LoggingMiddleware implements Middleware {
  readonly name = 'logging';
  private readonly log: (line: string) => void;

  constructor(options: LoggingMiddlewareOptions = {}) {
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  beforeRequest(request: Request): Request {
    const tools = request.tools?.length ? ` tools=${request.tools.length}` : '';
    this.log(`llm request model=${request.model} messages=${request.messages.length}${tools}`);
    return request;
  }

  afterResponse(response: Response): Response {
    this.log(this.describe(response));
    return response;
  }

  async *wrapStream(stream: AsyncIterable<StreamEvent>): AsyncIterable<StreamEvent> {
    for await (const event of stream) {
      if (event.type === 'finish') this.log(this.describe(event.response));
      yield event;
    }
  }

  private describe(response: Response): string {
    const u = response.usage;
    const cache = u.cacheReadTokens !== undefined ? ` cache_read=${u.cacheReadTokens}` : '';
    return (
      `llm response provider=${response.provider} model=${response.model} finish=${response.finishReason.reason}` +
      ` latency_ms=${response.latencyMs ?? '?'} in=${u.inputTokens} out=${u.outputTokens}${cache}`
    );
  }
}
