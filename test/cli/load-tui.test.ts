import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDist, ROOT } from '../helpers/ensure-dist.js';

// Logs every module Node resolves into node_modules/ink or node_modules/react.
const RESOLVE_LOGGER = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (/node_modules\\\\/(ink|react)\\\\//.test(result.url)) process.stderr.write('LOADED ' + result.url + '\\\\n');
  return result;
}\`));
`)}`;

function withoutNodeEnv(): NodeJS.ProcessEnv {
  const { NODE_ENV: _unset, ...env } = process.env;
  return env;
}

describe('the built CLI loads the TUI from its one-file bundle', () => {
  beforeAll(() => ensureDist(), 180_000);

  it('the build writes dist/tui/tui-entry.bundle.js', () => {
    expect(existsSync(path.join(ROOT, 'dist', 'tui', 'tui-entry.bundle.js'))).toBe(true);
  });

  it('loadTui() gives the TUI without loading Ink or React module by module', () => {
    const script = `
      const { loadTui, tuiLoadInfo } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'cli', 'load-tui.js'))});
      const tui = await loadTui();
      console.log(typeof tui.startRunTui, typeof tui.attachTui, String(process.env.NODE_ENV), tuiLoadInfo().from);
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', RESOLVE_LOGGER, '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        env: withoutNodeEnv(),
      },
    );
    expect(child.status, child.stderr).toBe(0);
    // The TUI's environment is not the run's: tool commands must not inherit a NODE_ENV the TUI set.
    expect(child.stdout.trim()).toBe('function function undefined bundle');
    expect(child.stderr).not.toMatch(/LOADED/);
  });

  it("with Ink's development mode on (DEV=true) the TUI comes from its modules, as Ink ships them", () => {
    const script = `
      const { loadTui, tuiLoadInfo } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'cli', 'load-tui.js'))});
      const tui = await loadTui();
      console.log(typeof tui.startRunTui, tuiLoadInfo().from);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...withoutNodeEnv(), DEV: 'true' },
    });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout.trim()).toBe('function modules');
  });

  it('the same logger does see Ink when the TUI is loaded from its modules (so the check can fail)', () => {
    const script = `await import(${JSON.stringify(path.join(ROOT, 'dist', 'tui', 'tui-entry.js'))});`;
    const child = spawnSync(
      process.execPath,
      ['--import', RESOLVE_LOGGER, '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(child.status, child.stderr).toBe(0);
    expect(child.stderr).toMatch(/LOADED .*node_modules\/ink\//);
  });
});
