import { Logger } from 'graphile-worker';

/** graphile-worker logs every job; a server's or worker's output is its own. */
export const quietGraphileLogger = new Logger(() => () => {});
