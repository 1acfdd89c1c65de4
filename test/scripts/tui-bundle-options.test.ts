import path from 'node:path';
import { describe, expect, test } from 'vitest';
// @ts-expect-error a build script in plain JavaScript, without type declarations
import { tuiBundleOptions } from '../../scripts/tui-bundle-options.mjs';

interface ResolveArgs {
  path: string;
  importer: string;
}
type OnResolve = (args: ResolveArgs) => { path: string; external: boolean } | undefined;
interface Plugin {
  name: string;
  setup(build: Record<string, unknown>): void;
}

const tuiDir = path.resolve('/project/dist/tui');
const options = tuiBundleOptions(tuiDir) as Record<string, unknown> & { plugins: Plugin[] };

/** Runs every plugin's setup against a recorder of the hooks it registers. */
function hooks(): { onLoad: unknown[]; onResolve: OnResolve[]; other: string[] } {
  const found = { onLoad: [] as unknown[], onResolve: [] as OnResolve[], other: [] as string[] };
  for (const plugin of options.plugins) {
    plugin.setup(
      new Proxy(
        {},
        {
          get: (_target, hook: string) => (_filter: unknown, callback: OnResolve) => {
            if (hook === 'onLoad') found.onLoad.push(callback);
            else if (hook === 'onResolve') found.onResolve.push(callback);
            else found.other.push(hook);
          },
        },
      ),
    );
  }
  return found;
}

describe('the TUI bundle takes its dependencies as they are published', () => {
  test('no plugin loads (and so may rewrite) a file, and nothing is aliased or injected', () => {
    const { onLoad, other } = hooks();
    expect(onLoad).toEqual([]);
    expect(other).toEqual([]);
    expect(options).not.toHaveProperty('alias');
    expect(options).not.toHaveProperty('inject');
    expect(options).not.toHaveProperty('footer');
  });

  test('the one resolver only keeps our own modules outside dist/tui/ as imports', () => {
    const [resolve] = hooks().onResolve;
    if (!resolve) throw new Error('no resolver');
    const inTui = path.join(tuiDir, 'App.js');
    expect(resolve({ path: '../shared/errors.js', importer: inTui })).toEqual({
      path: '../shared/errors.js',
      external: true,
    });
    expect(resolve({ path: './Header.js', importer: inTui })).toBeUndefined();
    const inInk = '/project/node_modules/ink/build/ink.js';
    expect(resolve({ path: './output.js', importer: inInk })).toBeUndefined();
    expect(resolve({ path: '../package.json', importer: inInk })).toBeUndefined();
  });
});
