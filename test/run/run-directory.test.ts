import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { startPipeline } from '../../src/run/engine.js';
import { makeRunFolder, writeRunFiles } from '../../src/run/run-directory.js';
import type { RunManifest } from '../../src/run/run-manifest.js';
import { WriteLane } from '../../src/shared/write-lane.js';
import { fdsUnder } from '../helpers/open-files.js';
import { runDot, tempDir } from '../helpers/run-helpers.js';

const MANIFEST: RunManifest = {
  run_id: 'r1',
  pipeline: 'g',
  goal: '',
  source_sha256: 'x',
  started_at: '2026-11-27T00:00:00.000Z',
  attractor_version: '0.0.0',
  options: {},
};

/** Event-loop turns, long enough for a discarded write to have run had it not been discarded. */
const turns = () => new Promise((resolve) => setTimeout(resolve, 50));

function newRunFolder(): string {
  const runDir = join(tempDir(), 'run');
  makeRunFolder(runDir);
  return runDir;
}

describe('writeRunFiles', () => {
  it.each([true, false])(
    'durable=%s: pipeline.dot and manifest.json appear with the lane’s batch, whole',
    async (durable) => {
      const runDir = newRunFolder();
      const lane = new WriteLane({ durable });
      writeRunFiles(lane, runDir, 'digraph g {}', MANIFEST);
      // Queued: nothing is written in the turn that asked.
      expect(readdirSync(runDir)).toEqual(['artifacts']);
      await lane.settled();
      expect(readdirSync(runDir).sort()).toEqual(['artifacts', 'manifest.json', 'pipeline.dot']);
      expect(readFileSync(join(runDir, 'pipeline.dot'), 'utf8')).toBe('digraph g {}');
      expect(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'))).toEqual(MANIFEST);
    },
  );

  it('discarded with the lane (a run that never started): neither appears', async () => {
    const runDir = newRunFolder();
    const lane = new WriteLane();
    writeRunFiles(lane, runDir, 'digraph g {}', MANIFEST);
    lane.discard();
    await turns();
    expect(readdirSync(runDir)).toEqual(['artifacts']);
  });

  it('a pipeline copy that cannot be placed gives up the manifest too, and leaves no temp file', async () => {
    const runDir = newRunFolder();
    mkdirSync(join(runDir, 'pipeline.dot'));
    writeFileSync(join(runDir, 'pipeline.dot', 'in-the-way'), '');
    const lane = new WriteLane();
    writeRunFiles(lane, runDir, 'digraph g {}', MANIFEST);
    await expect(lane.settled()).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(runDir).sort()).toEqual(['artifacts', 'pipeline.dot']);
  });
});

const SOURCE = (name: string) =>
  `digraph ${name} { start [shape=Mdiamond]; a [shape=diamond]; exit [shape=Msquare]; start -> a -> exit }`;

describe('a durable run', () => {
  it('has its pipeline copy and manifest in place before its first checkpoint', async () => {
    const runDir = join(tempDir(), 'run');
    const seen: string[] = [];
    const source = `digraph g { start [shape=Mdiamond]; look [type="look"]; exit [shape=Msquare]; start -> look -> exit }`;
    // The first node that does work starts once its checkpoint is on disk: the files must be there too.
    const registry = createDefaultRegistry().register('look', async () => {
      seen.push(JSON.parse(readFileSync(join(runDir, 'checkpoint.json'), 'utf8')).current_node);
      seen.push(readFileSync(join(runDir, 'pipeline.dot'), 'utf8'));
      seen.push(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')).pipeline);
      return { status: 'success' };
    });
    await runDot(source, { runDir, durable: true, registry });
    expect(seen).toEqual(['look', source, 'g']);
    expect(readdirSync(runDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('started twice in one folder at once: the second is refused and leaves the first one’s files alone', async () => {
    const runDir = join(tempDir(), 'run');
    const first = startPipeline({ source: SOURCE('first'), runDir, durable: true });
    expect(() => startPipeline({ source: SOURCE('second'), runDir, durable: true })).toThrow(
      expect.objectContaining({ code: 'RUN_DIR_IN_USE', message: expect.stringMatching(/in this process/) }),
    );
    const result = await first.result;
    await turns();
    expect(result.status).toBe('completed');
    expect(readFileSync(join(runDir, 'pipeline.dot'), 'utf8')).toBe(SOURCE('first'));
    expect(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'))).toMatchObject({
      run_id: result.runId,
      pipeline: 'first',
    });
    expect(readdirSync(runDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('whose pipeline copy cannot be placed stops at its first checkpoint without writing one', async () => {
    const runDir = join(tempDir(), 'run');
    const run = startPipeline({ source: SOURCE('g'), runDir, durable: true });
    // Something takes the name while the copy's fsync runs (before the first step ends).
    mkdirSync(join(runDir, 'pipeline.dot'));
    writeFileSync(join(runDir, 'pipeline.dot', 'in-the-way'), '');
    await expect(run.result).rejects.toMatchObject({
      code: 'RUN_OUTPUT_FAILED',
      message: expect.stringMatching(/manifest\.json and pipeline\.dot failed/),
    });
    await turns();
    const left = readdirSync(runDir);
    expect(left).not.toContain('checkpoint.json');
    expect(left).not.toContain('manifest.json');
    expect(left).not.toContain('run.lock');
  });

  it.each([false, true])(
    'that cannot launch (durable=%s) closes what it opened and leaves its folder free',
    async (durable) => {
      const runDir = join(tempDir(), 'run');
      const inspect = () => {
        throw new Error('inspector down');
      };
      for (let i = 0; i < 3; i++)
        expect(() => startPipeline({ source: SOURCE('g'), runDir, durable, inspect })).toThrow(
          /inspector down/,
        );
      await turns();
      expect(fdsUnder(runDir)).toBe(0);
      const left = readdirSync(runDir);
      expect(left).not.toContain('manifest.json');
      expect(left).not.toContain('pipeline.dot');
      expect(left).not.toContain('run.lock');
      const next = await startPipeline({ source: SOURCE('g'), runDir, durable }).result;
      expect(next.status).toBe('completed');
    },
  );

  it('that fails to start after taking its folder leaves it free for the next run', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    const notAFolder = join(root, 'history');
    writeFileSync(notAFolder, '');
    expect(() =>
      startPipeline({ source: SOURCE('g'), runDir, durable: true, checkpointDir: notAFolder }),
    ).toThrow();
    await turns();
    const left = readdirSync(runDir);
    expect(left).not.toContain('manifest.json');
    expect(left).not.toContain('run.lock');
    expect(left.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const next = await startPipeline({ source: SOURCE('g'), runDir, durable: true }).result;
    expect(next.status).toBe('completed');
  });
});

describe('a directory given as the run directory', () => {
  it.each([
    {
      holding: 'a file of the user’s named pipeline.dot',
      arrange: (dir: string) => writeFileSync(join(dir, 'pipeline.dot'), 'mine'),
      message: /holds pipeline\.dot, which/,
      kept: 'pipeline.dot',
    },
    {
      holding: 'a folder named like a node, with something in it',
      arrange: (dir: string) => {
        mkdirSync(join(dir, 'a'));
        writeFileSync(join(dir, 'a', 'status.json'), 'mine');
      },
      message: /holds a, which/,
      kept: join('a', 'status.json'),
    },
    {
      holding: 'the human gates’ answers folder, with something in it',
      arrange: (dir: string) => {
        mkdirSync(join(dir, 'answers'));
        writeFileSync(join(dir, 'answers', 'notes.txt'), 'mine');
      },
      message: /holds answers, which/,
      kept: join('answers', 'notes.txt'),
    },
    {
      holding: 'a name that differs only in case (one file on macOS)',
      arrange: (dir: string) => writeFileSync(join(dir, 'Pipeline.dot'), 'mine'),
      message: /holds Pipeline\.dot, which/,
      kept: 'Pipeline.dot',
    },
    {
      holding: 'a link named artifacts to an empty folder elsewhere',
      arrange: (dir: string) => {
        const elsewhere = join(tempDir(), 'outside');
        mkdirSync(elsewhere);
        symlinkSync(elsewhere, join(dir, 'artifacts'));
        writeFileSync(join(dir, 'notes.txt'), 'mine');
      },
      message: /holds artifacts, which/,
      kept: 'notes.txt',
    },
    {
      holding: 'a file of the user’s named run.lock',
      arrange: (dir: string) => {
        writeFileSync(join(dir, 'run.lock'), 'mine');
        const longAgo = new Date(Date.now() - 3_600_000);
        utimesSync(join(dir, 'run.lock'), longAgo, longAgo);
      },
      message: /holds run\.lock, which/,
      kept: 'run.lock',
      litter: ['artifacts'],
      lockKept: true,
    },
    {
      holding: 'the stale lock of a run that died starting, next to a file of the user’s',
      arrange: (dir: string) => {
        writeFileSync(join(dir, 'run.lock'), `${spawnSync('true').pid}\n`);
        writeFileSync(join(dir, 'pipeline.dot'), 'mine');
      },
      message: /holds pipeline\.dot, which/,
      kept: 'pipeline.dot',
      litter: ['artifacts'],
      lockKept: false,
    },
    {
      holding: 'several',
      arrange: (dir: string) => {
        for (const name of ['events.jsonl', 'checkpoint.json', 'processes.json', 'restart-2', 'start'])
          writeFileSync(join(dir, name), 'mine');
      },
      message:
        /holds checkpoint\.json, events\.jsonl, processes\.json and 2 more, which a run would write over/,
      kept: 'events.jsonl',
    },
  ] as Array<{
    holding: string;
    arrange: (dir: string) => void;
    message: RegExp;
    kept: string;
    /** Made before the lock refused the start: the folder for artifacts, empty. */
    litter?: string[];
    /** False: a dead run's lock, taken over and given back with the refusal. */
    lockKept?: boolean;
  }>)(
    'holding $holding is refused, the user’s files untouched',
    ({ arrange, message, kept, litter = [], lockKept = true }) => {
      const runDir = tempDir();
      arrange(runDir);
      const before = readdirSync(runDir);
      expect(() => startPipeline({ source: SOURCE('g'), runDir, durable: false })).toThrow(
        expect.objectContaining({ code: 'RUN_DIR_NOT_EMPTY', message: expect.stringMatching(message) }),
      );
      const expected = before.filter((name) => lockKept || name !== 'run.lock');
      expect(readdirSync(runDir).sort()).toEqual([...expected, ...litter].sort());
      expect(readFileSync(join(runDir, kept), 'utf8')).toBe('mine');
    },
  );

  it('holding only other things, or empty folders, takes the run', async () => {
    const runDir = tempDir();
    writeFileSync(join(runDir, 'README.md'), 'mine');
    mkdirSync(join(runDir, 'artifacts'));
    mkdirSync(join(runDir, 'a'));
    const run = await runDot(SOURCE('g'), { runDir });
    expect(run.result.status).toBe('completed');
    expect(readFileSync(join(runDir, 'README.md'), 'utf8')).toBe('mine');
  });
});
