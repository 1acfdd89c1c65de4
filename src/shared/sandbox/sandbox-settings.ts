import path from 'node:path';
import { probeSandbox } from './probe-sandbox.js';
import { DEFAULT_MAX_PROCESSES, parseEgressHosts, type SandboxPolicy } from './sandbox-policy.js';

/**
 * How a run sandboxes what it executes, decided once at the edge (CLI, server, worker, library). `off`:
 * commands run as the user (`--sandbox off`, or no sandbox on this machine).
 */
export type SandboxSettings =
  | { mode: 'off' }
  | {
      mode: 'on';
      /** The bubblewrap binary `probeSandbox` found working. */
      bwrap: string;
      /** Whether a pipeline's `sandbox="off"` is honoured (the CLI: yes; serve/worker: only `--unsandboxed`). */
      allowOff: boolean;
      /** Hidden from every command even inside the working tree: the server's data dir, the runs folder. */
      hidden: readonly string[];
      /** Writable besides the working tree: the run's own folder (the agent writes its status.json there). */
      writable: readonly string[];
      maxProcesses?: number;
    };

/** The sandbox on, when this machine has one; otherwise off (the caller says so once). */
export function defaultSandboxSettings(
  options: { allowOff?: boolean; hidden?: readonly string[] } = {},
): SandboxSettings {
  const probe = probeSandbox();
  if (!probe.available) return { mode: 'off' };
  return {
    mode: 'on',
    bwrap: probe.bwrap,
    allowOff: options.allowOff ?? true,
    hidden: options.hidden ?? [],
    writable: [],
  };
}

/** The run's own folder stays reachable, and the folder holding the other runs is hidden (when it holds this one). */
export function sandboxSettingsForRun(
  settings: SandboxSettings,
  runDir: string,
  runsRoot: string,
): SandboxSettings {
  if (settings.mode === 'off') return settings;
  const root = path.resolve(runsRoot);
  const dir = path.resolve(runDir);
  const inside = dir.startsWith(`${root}${path.sep}`);
  return {
    ...settings,
    hidden: inside ? [...settings.hidden, root] : settings.hidden,
    writable: [...settings.writable, dir],
  };
}

/** The attributes of a node and its graph that shape its sandbox. */
export interface SandboxAttributes {
  sandbox?: string | undefined;
  sandbox_egress?: string | undefined;
}

/**
 * The policy one node's command runs under, or undefined when it runs unsandboxed: the run's sandbox is
 * off, or the node or graph says `sandbox="off"` and the run honours that. The node's own attributes win
 * over the graph's.
 */
export function nodeSandbox(
  settings: SandboxSettings,
  node: SandboxAttributes,
  graph: SandboxAttributes,
  workingDirs: readonly string[],
): { bwrap: string; policy: SandboxPolicy } | undefined {
  if (settings.mode === 'off') return undefined;
  const mode = (node.sandbox ?? graph.sandbox ?? 'on').trim().toLowerCase();
  if (mode === 'off' && settings.allowOff) return undefined;
  const roots = new Set(workingDirs.map((dir) => path.resolve(dir)));
  return {
    bwrap: settings.bwrap,
    policy: {
      writable: [...roots, ...settings.writable],
      hidden: [...settings.hidden],
      egress: parseEgressHosts(node.sandbox_egress ?? graph.sandbox_egress),
      maxProcesses: settings.maxProcesses ?? DEFAULT_MAX_PROCESSES,
    },
  };
}
