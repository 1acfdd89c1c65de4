import { useCallback, useEffect, useState } from 'react';
import { ApiFailure, api, token, whenUnauthorized } from './api.js';
import type { ServerInfo } from './api-types.js';
import { RunList } from './RunList.js';
import { RunPage } from './RunPage.js';
import { SignIn } from './SignIn.js';
import { StartForm } from './StartForm.js';
import { useHashRoute } from './use-hash-route.js';
import { useWaitingTitle } from './use-waiting-title.js';

/** The web view: sign-in when the server asks for a token, then the run list, a run, or the start form. */
export function App() {
  const route = useHashRoute();
  const [signIn, setSignIn] = useState<{ message: string }>();
  const [info, setInfo] = useState<ServerInfo>();
  const [session, setSession] = useState(0);
  const [unreachable, setUnreachable] = useState('');

  useEffect(() => {
    whenUnauthorized((had) => setSignIn({ message: had ? 'That token is not valid for this server.' : '' }));
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again after each sign-in
  useEffect(() => {
    api<ServerInfo>('/server-info').then(
      (i) => {
        setInfo(i);
        setSignIn(undefined);
        setUnreachable('');
      },
      // A 401 opens the sign-in instead; anything else is said, not left as "Loading…".
      (e: unknown) => {
        if (!(e instanceof ApiFailure && e.status === 401)) {
          setUnreachable(e instanceof Error ? e.message : String(e));
        }
      },
    );
  }, [session]);
  const signedIn = useCallback(() => {
    setSignIn(undefined);
    setSession((n) => n + 1);
  }, []);

  if (signIn) return <SignIn message={signIn.message} onSignedIn={signedIn} />;
  if (!info) return <Loading unreachable={unreachable} retry={() => setSession((n) => n + 1)} />;
  return <SignedIn info={info} route={route} />;
}

/** Before the server said what it offers: loading, or why it did not answer. */
function Loading({ unreachable, retry }: { unreachable: string; retry: () => void }) {
  return (
    <main className="page">
      {unreachable ? (
        <p className="error" role="alert">
          The server did not answer: {unreachable}{' '}
          <button type="button" onClick={retry}>
            Try again
          </button>
        </p>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </main>
  );
}

/** The app once signed in: the top bar and the page the fragment names; the title counts waiting runs. */
function SignedIn({ info, route }: { info: ServerInfo; route: ReturnType<typeof useHashRoute> }) {
  useWaitingTitle();
  return (
    <>
      <header className="topbar">
        <a href="#/" className="brand">
          <img src="/favicon.svg" alt="" width="22" height="22" /> Attractor
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={route.page === 'runs' ? 'page' : undefined}>
            Runs
          </a>
          <a href="#/new" aria-current={route.page === 'new' ? 'page' : undefined}>
            New run
          </a>
        </nav>
        {token.get() && (
          <button
            type="button"
            id="signout"
            onClick={() => {
              token.clear();
              location.reload();
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <div id="content">
        {route.page === 'runs' && <RunList />}
        {route.page === 'new' && <StartForm info={info} />}
        {route.page === 'run' && <RunPage key={route.id} id={route.id} info={info} />}
      </div>
    </>
  );
}
