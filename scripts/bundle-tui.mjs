// Bundles the TUI (dist/tui/tui-entry.js) with Ink, React and Yoga into one file,
// dist/tui/tui-entry.bundle.cjs, which the CLI loads on a terminal (src/cli/load-tui.ts).
//
// Why: loaded module by module, Ink's tree (React's reconciler, Yoga, ~100 files, CommonJS ones parsed
// twice by Node's ESM loader) cost ~600 ms at start-up; one minified file with React's production build
// loads in a fraction of that (bench/tui-startup.mjs, target ≤ +150 ms over `--no-tui`).
//
// Our own modules outside dist/tui/ stay external, so the TUI shares them (errors, the compiler, the
// answer channel) with the rest of the CLI instead of carrying second copies.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import {
  patchInkMeasureText,
  patchInkOutput,
  patchInkWrapText,
  patchStyledChars,
  patchTokenize,
} from './ink-output-patches.mjs';
import { fastPathSource, narrowCodePoints, narrowLinePattern } from './narrow-width-class.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tuiDir = path.join(root, 'dist', 'tui');

/**
 * Ink imports its React DevTools bridge (and reads its package.json for it) only when DEV=true, with
 * top-level awaits a script cannot have; the bundle has no DevTools, so the bridge is empty and the
 * awaits go.
 */
const noDevtools = {
  name: 'no-ink-devtools',
  setup(b) {
    b.onResolve({ filter: /\/devtools\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}ink${path.sep}`)
        ? { path: 'ink-devtools', namespace: 'empty' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};' }));
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const awaits = ["await import('./devtools.js');", '? await loadPackageJson()'];
      if (!awaits.every((wait) => text.includes(wait))) {
        throw new Error(`${args.path}: Ink's DevTools loading changed; revisit this patch`);
      }
      const patched = text
        .replace(awaits[0], 'void 0;')
        .replace(awaits[1], '? { name: undefined, version: undefined }');
      return { contents: patched, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * Yoga decodes its embedded WebAssembly with `fetch` on a data: URL whenever `fetch` exists, which makes
 * Node load its whole fetch implementation (~100 ms) for nothing; its own base64 decoder does the same job.
 * And it compiles the module asynchronously, on another thread, whose result the main thread picks up
 * only between its tasks: tens of ms late on a busy machine. Compiled at once (~5 ms for its 70 kB), it
 * is ready a few microtasks after the bundle ran.
 */
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const asyncCompile = 'return WebAssembly.instantiate(f,d)';
      const patched = text
        .replace('"function"!=typeof fetch', 'true')
        .replace(
          asyncCompile,
          'const m=new WebAssembly.Module(f);return{module:m,instance:new WebAssembly.Instance(m,d)}',
        );
      if (text.split(asyncCompile).length !== 2 || !text.includes('"function"!=typeof fetch')) {
        throw new Error(`${args.path}: Yoga's wasm loader changed; revisit this patch`);
      }
      return { contents: patched, loader: 'js' };
    });
  },
};

/**
 * string-width (two copies: Ink's and wrap-ansi's) gets a fast path for lines of one-column characters,
 * computed from that copy itself (scripts/narrow-width-class.mjs): the first frame no longer compiles an
 * emoji expression to measure a box border (~60 ms).
 */
const narrowStringWidth = {
  name: 'narrow-string-width',
  setup(b) {
    b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const text = readFileSync(args.path, 'utf8');
      // Building the \p{RGI_Emoji} expression alone takes ~16 ms at load; only the slow path needs it.
      const lazyEmoji = text.replace(
        'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
        () =>
          "let rgiEmoji;\nconst rgiEmojiRegex = { test: (s) => (rgiEmoji ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(s) };",
      );
      const renamed = lazyEmoji.replace(/export default function stringWidth\(/, 'function slowWidth(');
      if (renamed === text || !/^import stripAnsi from 'strip-ansi';$/m.test(text)) {
        throw new Error(`${args.path}: string-width changed; revisit its fast path`);
      }
      const { default: stringWidth } = await import(pathToFileURL(args.path).href);
      const pattern = narrowLinePattern(narrowCodePoints(stringWidth));
      return {
        contents: renamed + fastPathSource(pattern),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

/**
 * After unmounting, Ink's last React commit still calls its throttled render, whose timer keeps the
 * process alive one more frame (~34 ms) after the TUI closed, to render nothing; an unmounted Ink skips it.
 */
const inkNoRenderAfterUnmount = {
  name: 'ink-no-render-after-unmount',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]ink\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const hook = 'this.rootNode.onRender = () => {';
      const patched = text.replace(hook, `${hook}\n                if (this.isUnmounted) return;`);
      if (patched === text) throw new Error(`${args.path}: Ink's render hook changed; revisit this patch`);
      return { contents: patched, loader: 'js' };
    });
  },
};

/**
 * Ink's frames share their output caches, rows of cells become text without a style diff between cells
 * of one style, plain lines are tokenized without a grapheme segmenter, and Ink's text measuring and
 * wrapping caches are bounded (scripts/ink-output-patches.mjs).
 */
const inkOutputPatches = {
  name: 'ink-output-patches',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]measure-text\.js$/ }, (args) => ({
      contents: patchInkMeasureText(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]wrap-text\.js$/ }, (args) => ({
      contents: patchInkWrapText(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, (args) => ({
      contents: patchInkOutput(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
    b.onLoad({ filter: /[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/ }, async (args) => {
      // One-unit graphemes by the same test as string-width's fast path, from Ink's own copy.
      const { default: stringWidth } = await import(
        pathToFileURL(path.join(root, 'node_modules', 'string-width', 'index.js')).href
      );
      const pattern = narrowLinePattern(narrowCodePoints(stringWidth));
      return {
        contents: patchTokenize(readFileSync(args.path, 'utf8'), pattern, args.path),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
    b.onLoad({ filter: /[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/ }, (args) => ({
      contents: patchStyledChars(readFileSync(args.path, 'utf8'), args.path),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * Ink and its dependencies `import process from 'node:process'` at 14 places; in a CommonJS bundle each
 * becomes a copy of the process object's ~100 properties as getters at load (~10 ms in all). The global
 * is the same object: a module that exports it, and the two names imported from it, copies nothing. A
 * dependency importing another name from it fails the build ("No matching export").
 */
const processGlobal = {
  name: 'process-global',
  setup(b) {
    b.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-global' }));
    b.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({
      contents:
        'export default process;\nexport const env = process.env;\nexport const cwd = () => process.cwd();\n',
      loader: 'js',
    }));
  },
};

/**
 * Imports that leave dist/tui/ (our other modules) stay imports, rewritten relative to the bundle, which
 * sits in dist/tui/ itself; imports inside dist/tui/ are bundled.
 */
const ourModulesExternal = {
  name: 'our-modules-external',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.startsWith(tuiDir + path.sep)) return undefined;
      const target = path.resolve(path.dirname(args.importer), args.path);
      if (target.startsWith(tuiDir + path.sep)) return undefined;
      const fromBundle = path.relative(tuiDir, target).split(path.sep).join('/');
      return { path: fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`, external: true };
    });
  },
};

/**
 * Yoga's entry waits for its WebAssembly with a top-level await, which only an ES module may do; the
 * bundle is a script (so V8 can cache its compiled code, cli/load-tui.ts). Yoga is first used when Ink
 * renders, so the bundle exports the wait instead and the loader awaits it before handing the TUI out.
 */
const yogaReadyExport = {
  name: 'yoga-ready-export',
  setup(b) {
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const wait = 'const Yoga = wrapAssembly(await loadYoga());\nexport default Yoga;';
      if (!text.includes(wait)) throw new Error(`${args.path}: Yoga's entry changed; revisit this patch`);
      const ready =
        'let Yoga;\nexport const yogaReady = loadYoga().then((module) => {\n  Yoga = wrapAssembly(module);\n});\nexport { Yoga as default };';
      return { contents: text.replace(wait, ready), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

// Code caches of earlier bundles (cli/tui-code-cache.ts) and the ES-module bundle of earlier builds go.
for (const name of readdirSync(tuiDir)) {
  if (/^tui-entry\.bundle\.(.+\.v8cache|js|js\.LEGAL\.txt)$/.test(name)) rmSync(path.join(tuiDir, name));
}

// A CommonJS script, not an ES module: cli/load-tui.ts runs it through vm.Script with a V8 code cache
// and hands it `require` (Node's for built-ins, our already-loaded modules for the rest).
await build({
  stdin: {
    contents: "export * from './tui-entry.js';\nexport { yogaReady } from 'yoga-layout';\n",
    resolveDir: tuiDir,
    sourcefile: 'tui-bundle-entry.js',
    loader: 'js',
  },
  outfile: path.join(tuiDir, 'tui-entry.bundle.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // TUI_BUNDLE_MINIFY=0 keeps names readable in a CPU profile (bench/README.md).
  minify: process.env.TUI_BUNDLE_MINIFY !== '0',
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '__bundleUrl' },
  plugins: [
    noDevtools,
    yogaWithoutFetch,
    yogaReadyExport,
    narrowStringWidth,
    inkNoRenderAfterUnmount,
    inkOutputPatches,
    processGlobal,
    ourModulesExternal,
  ],
  logLevel: 'warning',
});

// The new bundle's V8 code cache, made now so the first TUI run does not compile the bundle
// (scripts/warm-tui-code-cache.mjs). A bundle that cannot even draw a frame fails the build here.
// Its output stays here (Ink restores a terminal's cursor on exit), unless it fails.
try {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'warm-tui-code-cache.mjs')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
} catch (error) {
  process.stderr.write(String(error.stderr ?? ''));
  throw new Error(`the TUI bundle failed its warm-up run: ${error.message}`);
}
