/** Process exit codes, documented in `attractor --help`. */
export const EXIT_OK = 0;
/** The pipeline is invalid, a run failed, or the input could not be read or parsed. */
export const EXIT_FAILURE = 1;
/** The command line itself is wrong: unknown command or flag, missing or bad argument. */
export const EXIT_USAGE = 2;
/** A bug in Attractor: an error we did not expect. */
export const EXIT_INTERNAL = 70;
/** Interrupted by the user (SIGINT). */
export const EXIT_INTERRUPTED = 130;
