import { AttractorError } from '../shared/errors.js';

/**
 * What a failure to bind the server's socket means to the person who started it: a port in use, a host
 * name that does not resolve, an address this machine does not have, a port it may not open. Anything
 * else is passed on as it is.
 */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const options = { cause: error };
  switch (error.code) {
    case 'EADDRINUSE':
      return new AttractorError('PORT_IN_USE', `port ${port} on ${host} is already in use.`, options);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new AttractorError(
        'HOST_UNUSABLE',
        `--host ${host}: no such address or host name here (${error.code}); give an address of this machine, such as 127.0.0.1.`,
        options,
      );
    case 'EADDRNOTAVAIL':
    case 'EINVAL':
    case 'EAFNOSUPPORT':
      return new AttractorError(
        'HOST_UNUSABLE',
        `--host ${host}: this machine has no such address to listen on (${error.code}); give one of its addresses, 127.0.0.1, or 0.0.0.0 for all of them.`,
        options,
      );
    case 'EACCES':
      return new AttractorError(
        'PORT_NOT_ALLOWED',
        `port ${port} on ${host}: not allowed for this user (${error.code}); choose a port above 1023.`,
        options,
      );
    default:
      return error;
  }
}
