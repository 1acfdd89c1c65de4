import { type FormEvent, useEffect, useRef, useState } from 'react';
import { signInHref, token } from './api.js';

/**
 * Signing in: with the server's sign-in page (OpenID Connect) when it has one, coming back to this very
 * page; and with a token, kept in this tab only (a one-person server's `--token`, or a personal token).
 */
export function SignIn({
  message,
  signInPath,
  onSignedIn,
}: {
  message: string;
  signInPath?: string | undefined;
  onSignedIn: () => void;
}) {
  const [value, setValue] = useState('');
  const link = useRef<HTMLAnchorElement>(null);
  const field = useRef<HTMLInputElement>(null);
  // The sign-in is the whole page: the keyboard starts at its first control.
  useEffect(() => (link.current ?? field.current)?.focus(), []);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    token.set(value.trim());
    setValue('');
    onSignedIn();
  };
  return (
    <main className="signin">
      <form id="signin" onSubmit={submit} aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to Attractor</h1>
        {signInPath && (
          <>
            <p>Sign in with your organisation's account; you come back to this page afterwards.</p>
            <a id="signin-link" className="button primary" href={signInHref(signInPath, location)} ref={link}>
              Sign in
            </a>
            <h2 className="signin-or">Or use an API token</h2>
          </>
        )}
        <p>
          {signInPath
            ? 'A personal token works too. It is kept in this browser tab only.'
            : 'This server needs its access token. It is kept in this browser tab only.'}
        </p>
        <label>
          Token
          <input
            id="token"
            type="password"
            autoComplete="off"
            required
            ref={field}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <button type="submit" id="signin-button" className={signInPath ? undefined : 'primary'}>
          {signInPath ? 'Use the token' : 'Sign in'}
        </button>
        <div id="signin-error" role="alert">
          {message}
        </div>
      </form>
    </main>
  );
}
