import { useEffect, useState } from 'react';

/** A run's page, at one of its nodes when `node` is given (a notification's gate link: `?node=`). */
export type Route = { page: 'runs' } | { page: 'new' } | { page: 'run'; id: string; node?: string };

export function parseRoute(hash: string): Route {
  const run = hash.match(/^#\/runs\/([^/?]+)[^?]*(?:\?(.*))?$/);
  if (run?.[1]) {
    const id = decodeURIComponent(run[1]);
    const node = new URLSearchParams(run[2] ?? '').get('node');
    return node ? { page: 'run', id, node } : { page: 'run', id };
  }
  if (hash.startsWith('#/new')) return { page: 'new' };
  return { page: 'runs' };
}

/** Pages are addressed by the fragment (`#/runs/<id>`), so links, the back button and reloads work. */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = (): void => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export const runHref = (id: string): string => `#/runs/${encodeURIComponent(id)}`;
