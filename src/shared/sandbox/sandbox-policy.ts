/**
 * What one sandboxed command may touch (decision 0341). Everything not named here is invisible: the
 * host's other folders, its network, its other processes.
 */
export interface SandboxPolicy {
  /** Writable, at the same paths as outside: the working tree, and a branch's worktree when given. */
  writable: readonly string[];
  /** Made empty inside even when they lie under a writable folder: the server's data dir, other runs. */
  hidden: readonly string[];
  /** Host names the command may reach through the egress proxy (`sandbox_egress`); none: no network. */
  egress: readonly string[];
  /** Processes the command may have at once (a pids cgroup where one can be made; see decision 0341). */
  maxProcesses: number;
}

/** A policy and the bubblewrap that enforces it: what the spawner needs to sandbox one command. */
export interface SandboxSpec {
  bwrap: string;
  policy: SandboxPolicy;
}

/** Processes one sandboxed command may have at once, unless a policy says otherwise. */
export const DEFAULT_MAX_PROCESSES = 1024;

/** `"github.com, registry.npmjs.org"` → host names, lower case. */
export const parseEgressHosts = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host.length > 0);
