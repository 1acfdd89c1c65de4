import { useState } from 'react';
import type { WhoAmIJson } from '../shared/server-responses.js';
import { api, token } from './api.js';

/** How the top bar names who the server takes this tab for. */
function describe(who: WhoAmIJson): string {
  if (who.kind === 'server-token') return "the server's token";
  if (who.kind === 'token') return `token ${who.name}`;
  return who.name;
}

/**
 * Who is signed in, and signing out: a person's session ends on the server (`POST /signout`), a token is
 * forgotten by this tab. An open server (`anonymous`) has no one to sign out.
 */
export function Account({ who, onSignedOut }: { who: WhoAmIJson; onSignedOut: () => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  if (who.kind === 'anonymous') return null;
  const signOut = async (): Promise<void> => {
    setBusy(true);
    setError('');
    try {
      token.clear();
      if (who.kind === 'person') await api('/signout', { method: 'POST' });
      onSignedOut();
    } catch (e) {
      setError(`Not signed out: ${e instanceof Error ? e.message : String(e)}`);
      setBusy(false);
    }
  };
  return (
    <div className="account">
      <span id="whoami" className="muted">
        Signed in as <strong>{describe(who)}</strong>
      </span>
      <button type="button" id="signout" disabled={busy} onClick={() => void signOut()}>
        Sign out
      </button>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
