import { AttractorError } from '../../shared/errors.js';

export const tokenExists = (name: string): AttractorError =>
  new AttractorError(
    'TOKEN_EXISTS',
    `a token named "${name}" exists and is not revoked: choose another name, or revoke it first (attractor token revoke ${name}).`,
  );

export const tokenNotFound = (name: string): AttractorError =>
  new AttractorError(
    'TOKEN_NOT_FOUND',
    `no live token is named "${name}" (attractor token list shows them).`,
  );
