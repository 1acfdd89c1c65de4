import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
// @ts-expect-error a build script in plain JavaScript, without type declarations
import { cliBundleOptions } from '../../scripts/cli-bundle-options.mjs';
import { ensureDist, ROOT } from '../helpers/ensure-dist.js';

describe('the CLI bundle takes its dependencies as they are published', () => {
  const options = cliBundleOptions(path.resolve('/project/dist')) as Record<string, unknown>;

  test('no plugin (which could load and rewrite a file), nothing aliased or injected', () => {
    for (const key of ['plugins', 'alias', 'inject', 'footer']) expect(options).not.toHaveProperty(key);
  });

  test('lazy imports stay lazy (code splitting), in an ES module', () => {
    expect(options).toMatchObject({ bundle: true, splitting: true, format: 'esm', platform: 'node' });
  });
});

/**
 * What the built bundle in dist/bin/ holds: per output file, the modules in it (esbuild heads each with a
 * `// path` comment when not minifying) and the files it imports statically.
 */
interface Chunk {
  modules: string[];
  imports: string[];
}

function readBundle(dir: string): Map<string, Chunk> {
  const chunks = new Map<string, Chunk>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    chunks.set(name, {
      modules: [...text.matchAll(/^\/\/ (\S+\.(?:[cm]?js|json))$/gm)].map((m) => m[1] as string),
      imports: [...text.matchAll(/^(?:import|export)\b[^;]*?["']\.\/([^"']+\.js)["'];?$/gm)].map(
        (m) => m[1] as string,
      ),
    });
  }
  return chunks;
}

/** Every module loaded with the output file that holds `module`, before any of its import()s run. */
function loadedWith(chunks: Map<string, Chunk>, module: string): string[] {
  const start = [...chunks].find(([, c]) => c.modules.some((m) => m.endsWith(module)))?.[0];
  if (!start) throw new Error(`no chunk holds ${module}`);
  const seen = new Set([start]);
  const queue = [start];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const next of chunks.get(name)?.imports ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen].flatMap((name) => chunks.get(name)?.modules ?? []);
}

describe('the built bundle loads what a command needs, when it needs it', () => {
  let chunks: Map<string, Chunk>;
  beforeAll(() => {
    ensureDist();
    chunks = readBundle(path.join(ROOT, 'dist', 'bin'));
  }, 180_000);

  const MODEL_CLIENT = /dist\/(llm|agent)\/|node_modules\/(ajv|openai|@anthropic-ai|@google\/genai)\//;
  const TUI = /node_modules\/(ink|react|yoga-layout)\//;

  test('starting loads commander and the command table, not the compiler, a model client or the TUI', () => {
    const modules = loadedWith(chunks, 'dist/cli/main.js');
    expect(modules.some((m) => m.includes('node_modules/commander/'))).toBe(true);
    expect(modules.filter((m) => /dist\/compiler\/|node_modules\/zod\//.test(m))).toEqual([]);
    expect(modules.filter((m) => MODEL_CLIENT.test(m) || TUI.test(m))).toEqual([]);
  });

  test.each(['dist/cli/run-run.js', 'dist/cli/run-resume.js', 'dist/cli/run-fork.js'])(
    '%s loads the engine but no model client and no TUI',
    (module) => {
      const modules = loadedWith(chunks, module);
      expect(modules).toContain('dist/run/run-services.js');
      expect(modules.filter((m) => MODEL_CLIENT.test(m) || TUI.test(m))).toEqual([]);
    },
  );

  test('validate loads zod without its translations (only English, the one it configures)', () => {
    // `import { z } from 'zod'` would keep the whole namespace, 64 locales and all (bench/validate.mjs).
    const zod = loadedWith(chunks, 'dist/cli/run-validate.js').filter((m) => m.includes('node_modules/zod/'));
    expect(zod.some((m) => m.endsWith('zod/v4/core/schemas.js'))).toBe(true);
    expect(zod.filter((m) => /\/locales\/(?!en\.js$)/.test(m))).toEqual([]);
  });

  test('no command loads the translations of zod: src/ imports zod as a namespace', () => {
    const bundled = [...chunks.values()].flatMap((chunk) => chunk.modules);
    expect(bundled.filter((m) => /node_modules\/zod\/.*\/locales\/(?!en\.js$)/.test(m))).toEqual([]);
  });

  test('a real run brings the model client with it (so the checks above can fail)', () => {
    const modules = loadedWith(chunks, 'dist/actors/codergen/real-run-services.js');
    expect(modules.some((m) => m.startsWith('dist/llm/'))).toBe(true);
  });

  test('the TUI (a terminal only) brings Ink and React with it', () => {
    const modules = loadedWith(chunks, 'dist/tui/start-run-tui.js');
    expect(modules.some((m) => m.includes('node_modules/ink/'))).toBe(true);
    expect(modules.some((m) => m.includes('node_modules/react/'))).toBe(true);
  });
});
