import type { Hono } from 'hono';
import { noteForAudit } from '../audit/audit-notes.js';
import type { ServerAuth } from '../auth/identify-request.js';
import { rememberPrincipal } from '../auth/principal.js';
import { HOME_PATH, safeReturnPath } from '../auth/return-path.js';
import { clearedSessionCookie, sessionCookie } from '../auth/sessions.js';
import { clearedSignInCookie } from '../auth/sign-in-cookie.js';
import { SignInFailed } from '../auth/sign-in-failed.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An error and what caused it (`fetch failed` says little; its cause says `ECONNREFUSED`). */
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? text : `${text} (${reason(cause)})`;
}

/** Sign in again, coming back to where the person was going. */
const signInAgain = (returnTo: string): string =>
  returnTo === HOME_PATH ? '/signin' : `/signin?return_to=${encodeURIComponent(returnTo)}`;

const page = (title: string, text: string, link?: { href: string; text: string }): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ''}</main></body></html>`;

/**
 * `/signin` sends the browser to the provider, `/auth/callback` takes it back and opens a session
 * (an `HttpOnly; Secure; SameSite=Lax` cookie), `POST /signout` ends it. When the provider cannot be
 * reached or refuses, the page says what failed; API tokens keep working meanwhile.
 * `/signin?return_to=/#/runs/…` lands back there: only a path on this server (`safeReturnPath`; anything
 * else lands at `/`), checked on the way in and out, so no one can make it an open redirect. The sign-in
 * in progress (state, PKCE verifier, return path) is the browser's `attractor_signin` cookie, cleared
 * by the callback whatever its outcome: any server of the deployment can finish it.
 */
export function registerSignInRoutes(app: Hono, auth: ServerAuth): void {
  app.get('/signin', async (c) => {
    if (!auth.signIn)
      return c.html(page('No sign-in here', 'This server has no sign-in configured: use a token.'), 404);
    const returnTo = safeReturnPath(c.req.query('return_to')) ?? HOME_PATH;
    try {
      const started = await auth.signIn.oidc.start(new URL('/auth/callback', c.req.url), returnTo);
      c.header('Set-Cookie', started.cookie);
      return c.redirect(started.provider.href, 302);
    } catch (error) {
      const why = `The OpenID provider at ${auth.signIn.oidc.issuer} could not be used: ${reason(error)}. API tokens still work.`;
      return c.html(
        page('Sign-in is not available', why, { href: signInAgain(returnTo), text: 'Try again' }),
        502,
      );
    }
  });
  app.get('/auth/callback', async (c) => {
    if (!auth.signIn) return c.html(page('No sign-in here', 'This server has no sign-in configured.'), 404);
    // Used once, whatever comes of it (a copy replayed with the same code: codes are single-use at the provider).
    c.header('Set-Cookie', clearedSignInCookie);
    try {
      const { principal, person, returnTo } = await auth.signIn.oidc.finish(c.req.raw);
      // The session's person is who signed in, for the audit trail.
      rememberPrincipal(c.req.raw, principal);
      c.header('Set-Cookie', sessionCookie(await auth.signIn.sessions.open(person)), { append: true });
      // Checked again on the way out: whatever was kept, the browser goes nowhere but this server.
      return c.redirect(safeReturnPath(returnTo) ?? HOME_PATH, 302);
    } catch (error) {
      const failed = error instanceof SignInFailed;
      noteForAudit(c.req.raw, { error_code: failed ? error.code : 'SIGN_IN_FAILED' });
      const why = error instanceof Error ? error.message : String(error);
      const again = signInAgain(failed ? error.returnTo : HOME_PATH);
      return c.html(page('Sign-in failed', why, { href: again, text: 'Sign in again' }), 401);
    }
  });
  app.post('/signout', async (c) => {
    await auth.signIn?.sessions.close(c.req.raw);
    c.header('Set-Cookie', clearedSessionCookie);
    return c.json({ signed_out: true });
  });
}
