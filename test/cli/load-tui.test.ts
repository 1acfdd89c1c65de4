import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist, ROOT } from '../helpers/ensure-dist.js';

/** A module for `node --import` that logs to stderr every file Node resolves whose URL matches `pattern`. */
function resolveLogger(pattern: string): string {
  const hooks = `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (new RegExp(${JSON.stringify(pattern)}).test(result.url)) process.stderr.write('LOADED ' + result.url + '\\n');
  return result;
}`;
  const register = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  return `data:text/javascript,${encodeURIComponent(register)}`;
}
const INK_OR_REACT = 'node_modules/(ink|react)/';

function withoutNodeEnv(): NodeJS.ProcessEnv {
  const { NODE_ENV: _unset, ...env } = process.env;
  return env;
}

async function node(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { env, cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, stdout, stderr };
}

describe.concurrent('the CLI runs from its bundle, and loads the TUI from it', () => {
  beforeAll(() => ensureDist(), 180_000);

  it("the bundle's loadTui() gives the TUI without loading Ink or React module by module", async () => {
    const script = `
      const { loadTui } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'bin', 'attractor.js'))});
      const tui = await loadTui();
      console.log(typeof tui.startRunTui, typeof tui.attachTui, String(process.env.NODE_ENV));
    `;
    const child = await node(
      ['--import', resolveLogger(INK_OR_REACT), '--input-type=module', '-e', script],
      withoutNodeEnv(),
    );
    expect(child.status, child.stderr).toBe(0);
    // The TUI's environment is not the run's: tool commands must not inherit a NODE_ENV the TUI set.
    expect(child.stdout.trim()).toBe('function function undefined');
    expect(child.stderr).not.toMatch(/LOADED/);
  });

  it('the same logger does see Ink when the TUI is loaded from its modules (so the check can fail)', async () => {
    const script = `await import(${JSON.stringify(path.join(ROOT, 'dist', 'cli', 'load-tui.js'))}).then((m) => m.loadTui());`;
    const child = await node(
      ['--import', resolveLogger(INK_OR_REACT), '--input-type=module', '-e', script],
      withoutNodeEnv(),
    );
    expect(child.status, child.stderr).toBe(0);
    expect(child.stderr).toMatch(/LOADED .*node_modules\/ink\//);
  });

  // Ink's development mode reads Ink's package.json beside its modules and connects to React DevTools,
  // which the bundle leaves out: with DEV=true the launcher runs the CLI from its modules.
  it.each([
    { dev: undefined, from: 'dist/bin/attractor.js', not: 'dist/cli/main.js' },
    { dev: 'true', from: 'dist/cli/main.js', not: 'dist/bin/attractor.js' },
  ])('bin/attractor.js with DEV=$dev runs $from', async ({ dev, from, not }) => {
    const env = { ...withoutNodeEnv(), DEV: dev };
    if (dev === undefined) delete env['DEV'];
    const child = await node(
      ['--import', resolveLogger(String.raw`/dist/(bin|cli)/[^/]+\.js$`), BIN, '--version'],
      env,
    );
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(child.stderr).toContain(`LOADED file://${path.join(ROOT, from)}`);
    expect(child.stderr).not.toContain(path.join(ROOT, not));
  });
});
