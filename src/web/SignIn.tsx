import { type FormEvent, useState } from 'react';
import { token } from './api.js';

/** Asks for the server's token; it is kept in this tab only. */
export function SignIn({ message, onSignedIn }: { message: string; onSignedIn: () => void }) {
  const [value, setValue] = useState('');
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
        <p>This server needs its access token. It is kept in this browser tab only.</p>
        <label>
          Token
          <input
            id="token"
            type="password"
            autoComplete="off"
            required
            // biome-ignore lint/a11y/noAutofocus: the sign-in form is the whole page
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <button type="submit" id="signin-button" className="primary">
          Sign in
        </button>
        <div id="signin-error" role="alert">
          {message}
        </div>
      </form>
    </main>
  );
}
