/**
 * A manager loop whose child pipeline is itself, or a child checkpoint the disk refuses: the run fails
 * at the manager's node, with a message, and the process (the CLI, `attractor serve`) lives on. Before
 * `stack.max_depth` such a pipeline nested until a path grew too long, and the child checkpoint's
 * ENAMETOOLONG, thrown inside the actor's event delivery, ended the process.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STACK_LINE } from '../cli/run-cli.js';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { tempDir } from '../helpers/temp-dir.js';
import { readSse, waitFor } from '../server/server-fixtures.js';

beforeAll(ensureDist, 180_000);

const manager = (id: string, child: string, graphAttrs = '') => `digraph nest {
  ${graphAttrs}
  start [shape=Mdiamond]
  exit [shape=Msquare]
  ${id} [shape=house, stack.child_dotfile="${child}", manager.poll_interval="10ms"]
  start -> ${id} -> exit
}
`;
const LEAF =
  'digraph leaf { start [shape=Mdiamond]; exit [shape=Msquare]; work [label="w"]; start -> work -> exit }\n';

function attractor(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('child pipelines nest at most stack.max_depth deep', () => {
  it('a dry run of a manager loop whose child is itself fails at the manager, naming stack.max_depth', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'self.dot'), manager('m', 'self.dot'));
    const run = attractor(dir, ['run', '--dry-run', '--no-tui', 'self.dot']);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/manager loop m cannot start its child pipeline: .*stack\.max_depth/);
    expect(run.out).toContain('Failed at m');
    expect(run.out).not.toMatch(STACK_LINE);
    // Eight levels of children under the run, no ninth.
    const runDir = run.out.match(/Run directory: (\S+)/)?.[1] ?? '';
    expect(fs.existsSync(path.join(dir, runDir, ...Array(8).fill(['m', 'child']).flat()))).toBe(true);
    expect(fs.existsSync(path.join(dir, runDir, ...Array(9).fill(['m', 'child']).flat()))).toBe(false);
  });

  it.each([
    ['the default allows three levels', '', 0],
    ['stack.max_depth=2 stops the third', 'graph [stack.max_depth=2]', 2],
    ['a child cannot widen what its parent allows', 'graph [stack.max_depth=1]', 1],
  ])('%s', (_what, attrs, failsBelow) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'top.dot'), manager('a', 'one.dot', attrs));
    fs.writeFileSync(path.join(dir, 'one.dot'), manager('b', 'two.dot', 'graph [stack.max_depth=50]'));
    fs.writeFileSync(path.join(dir, 'two.dot'), manager('c', 'leaf.dot'));
    fs.writeFileSync(path.join(dir, 'leaf.dot'), LEAF);
    const run = attractor(dir, ['run', '--dry-run', '--no-tui', 'top.dot']);
    if (failsBelow === 0) {
      expect(run.code).toBe(0);
      expect(run.out).toContain('✓ work (child) success');
      return;
    }
    expect(run.code).toBe(1);
    expect(run.out).toContain(`manager loop ${'abc'[failsBelow]} cannot start its child pipeline`);
  });
});

describe('a child checkpoint that cannot be written', () => {
  it('fails the manager node, and the CLI ends the run as failed instead of crashing', () => {
    const dir = tempDir();
    // A run directory so deep that the manager's stage folder fits under PATH_MAX (4095 bytes) but its
    // child's checkpoint does not: the file system refuses exactly that write.
    let runDir = path.join(dir, 'runs');
    while (runDir.length < 3840) runDir = path.join(runDir, 'd'.repeat(200));
    const id = 'm'.repeat(4064 - 1 - runDir.length);
    fs.writeFileSync(path.join(dir, 'edge.dot'), manager(id, 'leaf.dot'));
    fs.writeFileSync(path.join(dir, 'leaf.dot'), LEAF);
    const run = attractor(dir, ['run', '--dry-run', '--no-tui', '--logs-dir', runDir, 'edge.dot']);
    expect(run.code).toBe(1);
    expect(run.out).toContain(`Failed at ${id}`);
    expect(run.out).toContain("cannot save the child pipeline's checkpoint: ENAMETOOLONG");
    expect(run.out).not.toMatch(STACK_LINE);
  });
});

describe('attractor serve', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  });

  it('a submitted self-referencing manager loop fails its run; the server keeps answering', async () => {
    const dir = tempDir();
    const pipelines = path.join(dir, 'pipelines');
    fs.mkdirSync(pipelines);
    fs.writeFileSync(path.join(pipelines, 'self.dot'), manager('m', 'self.dot'));
    const args = ['serve', '--port', '0', '--data-dir', tempDir(), '--allow-dir', pipelines];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
    });
    const post = await fetch(`${url}/pipelines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dot_path: 'self.dot', dry_run: true }),
    });
    expect(post.status).toBe(201);
    const { id } = (await post.json()) as { id: string };
    const status = await waitFor(async () => {
      const run = (await (await fetch(`${url}/pipelines/${id}`)).json()) as { status: string };
      return run.status === 'failed' ? run : undefined;
    }, 'the run to fail');
    expect(status.status).toBe('failed');
    const events = await readSse(`${url}/pipelines/${id}/events`, {
      until: (m) => m.data['kind'] === 'pipeline.failed',
    });
    expect(JSON.stringify(events)).toContain('manager loop m cannot start its child pipeline');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
});
