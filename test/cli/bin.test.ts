/**
 * End-to-end: the real `bin/attractor.js` in a child process, as users and CI run it. It needs dist/
 * (built by `npm ci` through `prepare`, or `npm run build`); when dist/ is missing or older than
 * src/, this file builds it once before its tests (test/helpers/ensure-dist.ts).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDist } from '../helpers/ensure-dist.js';
import { STACK_LINE } from './run-cli.js';
import { tempPipelines, VALID_PIPELINE } from './temp-pipelines.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = path.join(root, 'bin', 'attractor.js');

function attractor(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', ...env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const tmp = tempPipelines();
afterAll(() => tmp.cleanup());

beforeAll(() => ensureDist(), 180_000);

describe('bin/attractor.js', () => {
  it('--version prints the version, exit 0', () => {
    const result = attractor(['--version']);
    expect(result.code).toBe(0);
    // The bundle's chunks sit elsewhere than the modules: the version still comes from our package.json.
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('validate exits 0 on a clean pipeline, without colours when not a TTY', () => {
    const file = tmp.write('ok.dot', VALID_PIPELINE);
    const result = attractor(['validate', file], { FORCE_COLOR: '' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('valid');
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('a syntax error is one located line on stderr, exit 1, no stack', () => {
    const file = tmp.write('bad.dot', 'digraph p {\n  a -> \n');
    const result = attractor(['validate', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^attractor: .*bad\.dot:\d+:\d+: /);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('an unknown flag is a usage error, exit 2', () => {
    const result = attractor(['validate', 'x.dot', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^attractor: unknown option '--bogus'/);
  });

  it('compile --format svg renders with the WASM Graphviz', () => {
    const file = tmp.write('draw.dot', VALID_PIPELINE);
    const result = attractor(['compile', file, '--format', 'svg']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('<svg');
    expect(result.stdout).toContain('<title>work</title>');
  });
});
