import { AttractorError } from '../../shared/errors.js';
import { HOME_PATH } from './return-path.js';

/** Why a callback opened no session: its cookie, or the provider's answer. */
export type SignInFailureCode =
  | 'SIGN_IN_COOKIE_MISSING'
  | 'SIGN_IN_COOKIE_TAMPERED'
  | 'SIGN_IN_EXPIRED'
  | 'SIGN_IN_STATE_MISMATCH'
  | 'SIGN_IN_FAILED';

/**
 * A sign-in that failed at its callback: the person tries again from where they were going, when the
 * sign-in's own cookie still vouches for that place (else from `/`).
 */
export class SignInFailed extends AttractorError {
  override readonly code: SignInFailureCode;
  readonly returnTo: string;

  constructor(code: SignInFailureCode, message: string, returnTo = HOME_PATH, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'SignInFailed';
    this.code = code;
    this.returnTo = returnTo;
  }
}
