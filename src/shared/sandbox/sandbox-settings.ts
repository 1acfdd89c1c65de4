import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from './probe-sandbox.js';
import { DEFAULT_MAX_PROCESSES, parseEgressHosts, type SandboxSpec } from './sandbox-policy.js';

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

let fallback: SandboxSettings | undefined;

/** The run's settings, or — for a caller that gave none (a library user, a handler in a test) — the default. */
export function sandboxOrDefault(settings: SandboxSettings | undefined): SandboxSettings {
  if (settings) return settings;
  fallback ??= defaultSandboxSettings();
  return fallback;
}

/**
 * The run's own folder stays reachable (writable), and the folder of the other runs is hidden: `runsRoot`
 * when given, else the default layout's `.attractor-runs` two levels up (`<root>/<graph>/<id>`).
 */
export function sandboxSettingsForRun(
  settings: SandboxSettings,
  runDir: string,
  runsRoot?: string,
): SandboxSettings {
  if (settings.mode === 'off') return settings;
  const dir = path.resolve(runDir);
  const guess = path.dirname(path.dirname(dir));
  const root = runsRoot
    ? path.resolve(runsRoot)
    : path.basename(guess) === '.attractor-runs'
      ? guess
      : undefined;
  const inside = root !== undefined && dir.startsWith(`${root}${path.sep}`);
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
): SandboxSpec | undefined {
  if (settings.mode === 'off') return undefined;
  const mode = (node.sandbox ?? graph.sandbox ?? 'on').trim().toLowerCase();
  if (mode === 'off' && settings.allowOff) return undefined;
  const writable = new Set([...workingDirs, ...settings.writable].map(realDir));
  return {
    bwrap: settings.bwrap,
    policy: {
      writable: [...writable],
      hidden: [...new Set(hiddenAround(settings.hidden.map(realDir), [...writable]))],
      egress: parseEgressHosts(node.sandbox_egress ?? graph.sandbox_egress),
      maxProcesses: settings.maxProcesses ?? DEFAULT_MAX_PROCESSES,
    },
  };
}

/** Absolute, links resolved when it exists (bubblewrap and the file tools compare real paths). */
function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

const within = (parent: string, child: string): boolean => child.startsWith(`${parent}${path.sep}`);

/**
 * A hidden folder that holds a folder the command works in (a worker's `<data>/runs/<id>/work`) is hidden
 * all around it: every entry of each folder on the way down except the one leading there. One that is a
 * working folder itself (a server started in its own data dir) hides nothing more than its parts listed
 * separately (its `runs`).
 */
function hiddenAround(hidden: readonly string[], writable: readonly string[]): string[] {
  const result: string[] = [];
  for (const dir of hidden) {
    if (writable.includes(dir)) continue;
    const inside = writable.filter((work) => within(dir, work));
    if (inside.length === 0) {
      result.push(dir);
      continue;
    }
    const keep = new Set(inside.flatMap((work) => ancestorsBelow(dir, work)));
    for (const folder of [dir, ...keep]) {
      // Inside a folder the command may write (a branch's worktree in its run's own folder) there is
      // nothing of another run to hide; listing it would race with sibling branches' folders coming and
      // going while bubblewrap mounts.
      if (inside.some((work) => folder === work || within(work, folder))) continue;
      for (const name of safeList(folder)) {
        const entry = path.join(folder, name);
        if (!keep.has(entry)) result.push(entry);
      }
    }
  }
  return result;
}

/** The folders from just below `top` down to `leaf`, `leaf` included. */
function ancestorsBelow(top: string, leaf: string): string[] {
  const chain: string[] = [];
  for (let at = leaf; at !== top && within(top, at); at = path.dirname(at)) chain.push(at);
  return chain;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
