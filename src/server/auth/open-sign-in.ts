import { readFileSync } from 'node:fs';
import { AttractorError } from '../../shared/errors.js';
import type { Access } from './access-file.js';
import { OidcSignIn } from './oidc-sign-in.js';

interface SignInOptions {
  oidcIssuer?: string | undefined;
  oidcClientId?: string | undefined;
  oidcClientSecretFile?: string | undefined;
}

/**
 * Sign-in as the options ask: none, or OpenID Connect with all three of issuer, client id and secret
 * file. The issuer is not contacted here: one that is down does not stop the server (`/signin` says).
 * Its sessions are kept in the server's store (`openAuthStores`).
 */
export function openSignIn(options: SignInOptions, access: Access | undefined): OidcSignIn | undefined {
  const given = [options.oidcIssuer, options.oidcClientId, options.oidcClientSecretFile];
  if (given.every((value) => value === undefined)) return undefined;
  const { oidcIssuer, oidcClientId, oidcClientSecretFile } = options;
  if (oidcIssuer === undefined || oidcClientId === undefined || oidcClientSecretFile === undefined) {
    throw new AttractorError(
      'BAD_SERVER_OPTION',
      'sign-in needs all three of --oidc-issuer URL, --oidc-client-id ID and --oidc-client-secret-file FILE.',
    );
  }
  let clientSecret: string;
  try {
    clientSecret = readFileSync(oidcClientSecretFile, 'utf8').trim();
  } catch (error) {
    throw new AttractorError(
      'BAD_SERVER_OPTION',
      `--oidc-client-secret-file ${oidcClientSecretFile}: cannot read it (${(error as Error).message}).`,
    );
  }
  return new OidcSignIn({ issuer: oidcIssuer, clientId: oidcClientId, clientSecret }, access);
}
