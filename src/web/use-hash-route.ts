import { useEffect, useState } from 'react';

export type Route = { page: 'runs' } | { page: 'new' } | { page: 'run'; id: string };

export function parseRoute(hash: string): Route {
  const run = hash.match(/^#\/runs\/([^/?]+)/);
  if (run?.[1]) return { page: 'run', id: decodeURIComponent(run[1]) };
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
