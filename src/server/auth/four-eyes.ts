import type { Principal } from './principal.js';

/** What decides whether a gate needs a second person: its own `human.four_eyes`, or the server's `--four-eyes`. */
export interface FourEyesGate {
  readonly gateFourEyes: boolean;
  readonly serverFourEyes: boolean;
}

/**
 * Why `answerer` may not answer a four-eyes gate of a run `startedBy` started, or `undefined` when they
 * may. A gate that needs a second person cannot be answered by a principal that names no one (the
 * single `--token`, an open server's `anonymous`): there is no telling two people apart.
 */
export function fourEyesRefusal(
  gate: FourEyesGate,
  startedBy: string | undefined,
  answerer: Principal,
): string | undefined {
  if (!gate.gateFourEyes && !gate.serverFourEyes) return undefined;
  const why = gate.gateFourEyes ? 'this gate has human.four_eyes=true' : 'this server runs with --four-eyes';
  if (answerer.kind === 'server-token' || answerer.kind === 'anonymous') {
    return `${why}: it needs an answer from a named person or token other than who started the run, and "${answerer.name}" names no one; sign in or use a personal token.`;
  }
  if (startedBy === undefined) {
    return `${why}, and who started this run is not recorded: it cannot be told apart from the answerer.`;
  }
  if (startedBy === answerer.name) {
    return `${why}: ${answerer.name} started this run, so someone else must answer it.`;
  }
  return undefined;
}

/** `--four-eyes` needs named identities: personal tokens or sign-in, not only the single `--token`. */
export function fourEyesStartRefusal(options: {
  fourEyes: boolean;
  signInConfigured: boolean;
  personalTokens: boolean;
}): string | undefined {
  if (!options.fourEyes || options.signInConfigured || options.personalTokens) return undefined;
  return '--four-eyes refuses an answer from the person who started the run, so it needs named identities: create personal tokens (attractor token create) or configure sign-in (--oidc-issuer); the single --token names no one.';
}
