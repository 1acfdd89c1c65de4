import { AttractorError } from '../shared/errors.js';

/** A node's handler type has no registered handler and the registry has no default to fall back to. */
export class HandlerNotFoundError extends AttractorError {
  readonly handlerType: string;

  constructor(handlerType: string) {
    super('HANDLER_NOT_FOUND', `no handler registered for type "${handlerType}" and no default handler`);
    this.name = 'HandlerNotFoundError';
    this.handlerType = handlerType;
  }
}
