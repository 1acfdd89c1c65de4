import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import {
  LocalExecutionEnvironment,
  type LocalExecutionEnvironmentOptions,
} from '../../../src/agent/environment/local-execution-environment.js';
import type { ToolContext } from '../../../src/agent/tools/define-tool.js';

export interface Workspace {
  /** The working directory (real path). */
  dir: string;
  env: LocalExecutionEnvironment;
  ctx(extra?: Partial<ToolContext>): ToolContext;
}

/** A fresh temp working directory per test, removed afterwards, with a LocalExecutionEnvironment on it. */
export function useWorkspace(options: LocalExecutionEnvironmentOptions = {}): Workspace {
  const ws = {} as Workspace;
  beforeEach(() => {
    ws.dir = realpathSync(mkdtempSync(join(tmpdir(), 'attractor-agent-tools-')));
    ws.env = new LocalExecutionEnvironment({ workingDir: ws.dir, ...options });
    ws.ctx = (extra = {}) => ({
      env: ws.env,
      signal: new AbortController().signal,
      callId: 'call-1',
      ...extra,
    });
  });
  afterEach(async () => {
    await ws.env.cleanup();
    rmSync(ws.dir, { recursive: true, force: true });
  });
  return ws;
}

/** Alive means present and not a zombie (a container's init may never reap orphans). */
export function alive(pid: number): boolean {
  const statPath = `/proc/${pid}/stat`;
  if (!existsSync(statPath)) return false;
  const stat = readFileSync(statPath, 'utf8');
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Signals are delivered asynchronously: give the process a moment to go. */
export async function eventuallyGone(pid: number, withinMs = 3000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  return !alive(pid);
}
