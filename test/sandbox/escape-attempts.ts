import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../src/shared/process/find-group-members.js';
import type { EscapeHost } from './escape-fixture.js';

/** What a channel reports of one command: its exit code and everything the user sees of its output. */
export interface Attempted {
  exitCode: number;
  output: string;
}

/**
 * One thing a hostile pipeline tries. Inside the sandbox it must fail (`blocked`) with the message a user
 * sees (`says`), and leave no trace (`check`); with `sandbox="off"` the same command succeeds where the
 * machine allows it (`off`), which is what proves the walls — not the machine — stopped it.
 */
export interface EscapeAttempt {
  name: string;
  command: (host: EscapeHost, tag: string) => string;
  /** The note (or message) the user reads when it is blocked; undefined: nothing is said, nothing leaks. */
  says?: RegExp;
  /** Must not be in the output when blocked (a secret). */
  leaks?: (host: EscapeHost) => string;
  /** After the blocked attempt: the host is untouched. */
  check?: (host: EscapeHost, tag: string) => boolean;
  /** With the sandbox off: what the output shows when it worked; undefined when it cannot work here anyway. */
  off?: (host: EscapeHost) => RegExp;
}

const INVISIBLE =
  /sandbox: only the working tree, \/tmp, an empty HOME and the system and toolchain folders are visible; sandbox="off"/;
const NETWORK_OFF = /sandbox: network is off; name hosts with sandbox_egress=/;
const READ_ONLY = /is read-only in the sandbox/;
const NO_PRIVILEGES = /sandbox: commands run without privileges/;

export const ESCAPE_ATTEMPTS: EscapeAttempt[] = [
  {
    name: 'read ~/.ssh/id_rsa',
    command: () => 'cat "$HOME/.ssh/id_rsa"',
    says: INVISIBLE,
    leaks: () => 'FAKE-SSH-KEY',
    off: () => /FAKE-SSH-KEY/,
  },
  {
    name: 'read ~/.aws/credentials by its host path',
    command: (host) => `cat ${join(host.home, '.aws/credentials')}`,
    says: INVISIBLE,
    leaks: () => 'FAKE-AWS-KEY',
    off: () => /FAKE-AWS-KEY/,
  },
  {
    name: "read the server's token and keys from /proc/*/environ",
    command: (host) => `grep -ls ${host.serverToken} /proc/*/environ | grep .`,
    leaks: (host) => `/proc/${host.victim.pid}/environ`,
    off: (host) => new RegExp(`/proc/${host.victim.pid}/environ`),
  },
  {
    name: 'read a file outside the tree',
    command: (host) => `cat ${join(host.outside, 'secret.txt')}`,
    says: INVISIBLE,
    leaks: () => 'OUTSIDE-SECRET',
    off: () => /OUTSIDE-SECRET/,
  },
  {
    name: 'write a file outside the tree',
    command: (host, tag) => `echo pwned > ${join(host.outside, `written-${tag}.txt`)}`,
    says: INVISIBLE,
    check: (host, tag) => !existsSync(join(host.outside, `written-${tag}.txt`)),
    off: () => /^$/,
  },
  {
    name: 'write into a system folder',
    command: (_host, tag) =>
      `touch /usr/local/attractor-escape-${tag} && rm /usr/local/attractor-escape-${tag}`,
    says: READ_ONLY,
    check: (_host, tag) => !existsSync(`/usr/local/attractor-escape-${tag}`),
    off: () => /^$/,
  },
  {
    name: 'follow a symlink out of the tree',
    command: (host, tag) => `ln -s ${join(host.outside, 'secret.txt')} link-${tag} && cat link-${tag}`,
    says: INVISIBLE,
    leaks: () => 'OUTSIDE-SECRET',
    off: () => /OUTSIDE-SECRET/,
  },
  {
    name: 'write through a symlinked folder out of the tree',
    command: (host, tag) => `ln -s ${host.outside} dir-${tag} && echo pwned > dir-${tag}/via-${tag}.txt`,
    says: INVISIBLE,
    check: (host, tag) => !existsSync(join(host.outside, `via-${tag}.txt`)),
    off: () => /^$/,
  },
  {
    name: 'hard-link a file from outside the tree',
    command: (host, tag) => `ln ${join(host.outside, 'secret.txt')} hard-${tag} && cat hard-${tag}`,
    says: /sandbox: /,
    leaks: () => 'OUTSIDE-SECRET',
    off: () => /OUTSIDE-SECRET/,
  },
  {
    name: "read another run's folder inside the tree",
    command: () => 'cat .attractor-runs/g/other-run/secret.txt',
    says: INVISIBLE,
    leaks: () => 'OTHER-RUN-SECRET',
    off: () => /OTHER-RUN-SECRET/,
  },
  {
    name: "read the server's data dir inside the tree",
    command: () => 'cat .attractor-server/token',
    says: INVISIBLE,
    leaks: () => 'SERVER-DATA-TOKEN',
    off: () => /SERVER-DATA-TOKEN/,
  },
  {
    name: 'reach a server on 127.0.0.1',
    command: (host) => `curl -sS -m 5 http://127.0.0.1:${host.httpPort}/`,
    says: NETWORK_OFF,
    leaks: () => 'HOST-SERVER-OK',
    off: () => /HOST-SERVER-OK/,
  },
  {
    name: 'reach a server on 127.0.0.1 with bash /dev/tcp',
    command: (host) =>
      `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${host.httpPort}; printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3; cat <&3'`,
    says: NETWORK_OFF,
    leaks: () => 'HOST-SERVER-OK',
    off: () => /HOST-SERVER-OK/,
  },
  {
    name: "reach PostgreSQL's unix socket",
    command: (host) => `curl -sS -m 5 --unix-socket ${host.pgSocket} http://db/`,
    says: /sandbox: /,
    leaks: () => 'PG-SOCKET-OK',
    off: () => /PG-SOCKET-OK/,
  },
  {
    name: 'reach a host on the network',
    command: () => 'curl -sS -m 5 http://example.com/',
    says: NETWORK_OFF,
  },
  {
    name: 'signal a process outside the sandbox',
    command: (host) => `kill -TERM ${host.victim.pid}`,
    says: /sandbox: processes outside the sandbox cannot be seen or signalled/,
    check: (host) => host.victim.pid !== undefined && isRunning(host.victim.pid),
  },
  {
    name: 'fork without bound',
    command: () => `/bin/sh -c 'i=0; while [ $i -lt 120 ]; do sleep 1 & i=$((i+1)); done; wait'`,
    says: /sandbox: the command reached the sandbox's limit of 50 processes/,
    off: () => /^$/,
  },
  {
    name: 'become another user (setuid)',
    command: () => `su -s /bin/sh -c 'id -u' nobody`,
    says: NO_PRIVILEGES,
    off: () => /65534/,
  },
  {
    name: 'make a user namespace to regain privileges',
    command: () => 'unshare -r true',
    says: NO_PRIVILEGES,
    off: () => /^$/,
  },
  {
    name: 'plant a git fsmonitor that would run outside',
    command: (host, tag) => `git config core.fsmonitor "touch ${join(host.outside, `fsmonitor-${tag}`)}"`,
    says: READ_ONLY,
    off: () => /^$/,
  },
];
