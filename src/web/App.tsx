import { useCallback, useEffect, useRef, useState } from 'react';
import type { WhoAmIJson } from '../shared/server-responses.js';
import { Account } from './Account.js';
import { ApiFailure, api, whenUnauthorized } from './api.js';
import type { ServerInfo } from './api-types.js';
import { RunList } from './RunList.js';
import { RunPage } from './RunPage.js';
import { SignIn } from './SignIn.js';
import { StartForm } from './StartForm.js';
import { useHashRoute } from './use-hash-route.js';
import { useWaitingTitle } from './use-waiting-title.js';

/**
 * The web view: sign-in when the server asks for it (its sign-in page, or a token), then who is signed
 * in beside the run list, a run (at a node, for a gate's link), or the start form.
 */
export function App() {
  const route = useHashRoute();
  const [signIn, setSignIn] = useState<{ message: string; signInPath?: string | undefined }>();
  const [who, setWho] = useState<WhoAmIJson>();
  const [info, setInfo] = useState<ServerInfo>();
  const [session, setSession] = useState(0);
  const [unreachable, setUnreachable] = useState('');
  const signedOut = useRef(false);

  useEffect(() => {
    whenUnauthorized(({ hadToken, signInPath }) => {
      const message = signedOut.current
        ? 'You are signed out.'
        : hadToken
          ? 'That token is not valid for this server.'
          : '';
      setSignIn({ message, signInPath });
    });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again after each sign-in
  useEffect(() => {
    setWho(undefined);
    setInfo(undefined);
    api<WhoAmIJson>('/whoami')
      .then((w) => {
        setWho(w);
        return api<ServerInfo>('/server-info');
      })
      .then(
        (i) => {
          setInfo(i);
          setSignIn(undefined);
          setUnreachable('');
          signedOut.current = false;
        },
        // A 401 opens the sign-in instead; anything else is said, not left as "Loading…".
        (e: unknown) => {
          if (!(e instanceof ApiFailure && e.status === 401)) setUnreachable(refusal(e));
        },
      );
  }, [session]);
  const signedIn = useCallback(() => {
    setSignIn(undefined);
    setSession((n) => n + 1);
  }, []);
  // Signed out: the next request is refused (401), which brings the sign-in back.
  const signOut = useCallback(() => {
    signedOut.current = true;
    setSession((n) => n + 1);
  }, []);

  if (signIn) return <SignIn message={signIn.message} signInPath={signIn.signInPath} onSignedIn={signedIn} />;
  if (!info || !who) {
    const retry = (): void => setSession((n) => n + 1);
    return <Loading unreachable={unreachable} who={who} retry={retry} onSignedOut={signOut} />;
  }
  return <SignedIn info={info} who={who} route={route} onSignedOut={signOut} />;
}

/** Why the app could not start: a person without a role is told so, anything else as the server said. */
function refusal(error: unknown): string {
  if (error instanceof ApiFailure && error.status === 403)
    return `${error.message} Ask an admin of this server for a role.`;
  return `The server did not answer: ${error instanceof Error ? error.message : String(error)}`;
}

/** Before the server said what it offers: loading, or why it did not answer (and who is signed in). */
function Loading({
  unreachable,
  who,
  retry,
  onSignedOut,
}: {
  unreachable: string;
  who: WhoAmIJson | undefined;
  retry: () => void;
  onSignedOut: () => void;
}) {
  return (
    <main className="page">
      {unreachable ? (
        <p className="error" role="alert">
          {unreachable}{' '}
          <button type="button" onClick={retry}>
            Try again
          </button>
        </p>
      ) : (
        <p className="muted">Loading…</p>
      )}
      {who && <Account who={who} onSignedOut={onSignedOut} />}
    </main>
  );
}

/** The app once signed in: the top bar and the page the fragment names; the title counts waiting runs. */
function SignedIn({
  info,
  who,
  route,
  onSignedOut,
}: {
  info: ServerInfo;
  who: WhoAmIJson;
  route: ReturnType<typeof useHashRoute>;
  onSignedOut: () => void;
}) {
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
        <Account who={who} onSignedOut={onSignedOut} />
      </header>
      <div id="content">
        {route.page === 'runs' && <RunList />}
        {route.page === 'new' && <StartForm info={info} />}
        {route.page === 'run' && <RunPage key={route.id} id={route.id} atNode={route.node} info={info} />}
      </div>
    </>
  );
}
