import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureDist } from '../helpers/ensure-dist.js';
import { runCli, STACK_LINE } from './run-cli.js';

beforeAll(ensureDist, 120_000);

/**
 * Someone downloaded a pipeline into downloads/ and runs it from their project: the pipeline may read
 * its own folder and the project, not the file next to the downloads folder.
 */
const SECRET = 'KEY=do-not-read-me';
let top: string;
let project: string;
beforeAll(() => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-allow-read-')));
  project = path.join(top, 'project');
  fs.mkdirSync(path.join(top, 'downloads'));
  fs.mkdirSync(path.join(project, 'pipelines'), { recursive: true });
  fs.mkdirSync(path.join(project, 'prompts'));
  fs.mkdirSync(path.join(top, 'shared'));
  fs.writeFileSync(path.join(top, 'secret'), SECRET);
  fs.writeFileSync(path.join(top, 'shared', 'plan.md'), 'Shared plan prompt.');
  fs.writeFileSync(path.join(project, 'prompts', 'plan.md'), 'Project plan prompt.');
  fs.writeFileSync(path.join(top, 'downloads', 'p.dot'), pipeline('work [prompt="@../secret"]'));
  fs.writeFileSync(path.join(project, 'pipelines', 'x.dot'), pipeline('work [prompt="@../prompts/plan.md"]'));
  fs.writeFileSync(path.join(project, 'pipelines', 'missing.dot'), pipeline('work [prompt="@prompts/x.md"]'));
  fs.writeFileSync(path.join(project, 'shared.dot'), pipeline('work [prompt="@../shared/plan.md"]'));
});
afterAll(() => fs.rmSync(top, { recursive: true, force: true }));

function pipeline(work: string, extra = ''): string {
  return `digraph p {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  ${work}\n${extra}  start -> work -> exit\n}\n`;
}

describe('--allow-read: what a pipeline run from the command line may read', () => {
  it('a downloaded pipeline naming @../secret fails validation at the attribute, showing nothing of it', async () => {
    const r = await runCli(['validate', '../downloads/p.dot'], { cwd: project });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^\.\.\/downloads\/p\.dot:4:9: error file_not_allowed: the prompt of node "work" names "\.\.\/secret", which is not allowed: it is outside the folders this pipeline may read\./m,
    );
    expect(r.stdout).toMatch(/--allow-read DIR/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const json = await runCli(['validate', '../downloads/p.dot', '--json'], { cwd: project });
    const report = JSON.parse(json.stdout) as { valid: boolean; diagnostics: Array<Record<string, unknown>> };
    expect(report.valid).toBe(false);
    expect(report.diagnostics[0]).toMatchObject({
      rule: 'file_not_allowed',
      loc: { file: '../downloads/p.dot', line: 4, column: 9 },
    });
  });

  it('run and compile refuse it the same way, before anything runs', async () => {
    const run = await runCli(['run', '../downloads/p.dot', '--dry-run', '--logs-dir', 'run-1'], {
      cwd: project,
    });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/p\.dot:4:9: error file_not_allowed/);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
    expect(fs.existsSync(path.join(project, 'run-1'))).toBe(false);
    const compiled = await runCli(['compile', '../downloads/p.dot'], { cwd: project });
    expect(compiled.code).toBe(1);
    expect(compiled.stdout).toBe('');
    expect(compiled.stderr).toMatch(/file_not_allowed/);
  });

  it('--allow-read DIR widens it, for validate, compile and run', async () => {
    const allow = ['--allow-read', top];
    expect((await runCli(['validate', '../downloads/p.dot', ...allow], { cwd: project })).code).toBe(0);
    const compiled = await runCli(['compile', '../downloads/p.dot', ...allow], { cwd: project });
    expect(compiled.code).toBe(0);
    expect(compiled.stdout).toContain(SECRET);
    const run = await runCli(
      ['run', 'shared.dot', '--dry-run', '--logs-dir', 'run-2', '--allow-read', '../shared'],
      {
        cwd: project,
      },
    );
    expect(run.code).toBe(0);
    expect(fs.readFileSync(path.join(project, 'run-2', 'work', 'prompt.md'), 'utf8')).toContain(
      'Shared plan prompt.',
    );
  });

  it('from the repository root, pipelines/x.dot may name @../prompts/plan.md', async () => {
    const r = await runCli(['validate', 'pipelines/x.dot'], { cwd: project });
    expect(r.stdout).toMatch(/valid/);
    expect(r.code).toBe(0);
    // From inside pipelines/, the project is no longer the working directory: the same name is refused.
    const inside = await runCli(['validate', 'x.dot'], { cwd: path.join(project, 'pipelines') });
    expect(inside.code).toBe(1);
    expect(inside.stdout).toMatch(/x\.dot:4:9: error file_not_allowed/);
  });

  it('validate warns of a named file that does not exist, at its attribute; run refuses to start', async () => {
    const r = await runCli(['validate', 'pipelines/missing.dot'], { cwd: project });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `pipelines/missing.dot:4:9: warning prompt_file_missing: the prompt of node "work" names "prompts/x.md", but ${path.join(project, 'pipelines', 'prompts', 'x.md')} cannot be used: no such file; paths are relative to the pipeline file; a run will not start until it exists`,
    );
    const strict = await runCli(['validate', 'pipelines/missing.dot', '--strict'], { cwd: project });
    expect(strict.code).toBe(1);
    const run = await runCli(['run', 'pipelines/missing.dot', '--dry-run', '--logs-dir', 'run-missing'], {
      cwd: project,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error prompt_file_missing');
    expect(fs.existsSync(path.join(project, 'run-missing', 'checkpoint.json'))).toBe(false);
  });

  it('--allow-read naming no directory is a clear error', async () => {
    const r = await runCli(['validate', 'pipelines/x.dot', '--allow-read', 'nowhere'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('attractor: --allow-read nowhere: no such directory.\n');
  });

  it('resume reads within the same bounds, widened again by --allow-read', async () => {
    const dir = path.join(project, 'resumable');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'p.dot'),
      `digraph r {
  start [shape=Mdiamond]
  first [shape=parallelogram, tool_command="echo first"]
  slow [shape=parallelogram, tool_command="sleep 2"]
  work [prompt="@../../shared/plan.md"]
  exit [shape=Msquare]
  start -> first -> slow -> work -> exit
}
`,
    );
    fs.writeFileSync(path.join(dir, 's.json'), '{}');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'run',
        'p.dot',
        '--scenario',
        's.json',
        '--json',
        '--logs-dir',
        'runs',
        '--allow-read',
        '../../shared',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the run never reached "slow": ${out}`)), 20_000);
      child.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('"node.start"') && out.includes('"slow"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    // The killed run was a real process; resuming it goes through main() here (resume's own exit codes
    // and streams are proven on the binary in test/cli/run.test.ts).
    const refused = await runCli(['resume', 'runs'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(
      /p\.dot:5:\d+: .*which is not allowed.*\[file_not_allowed\].*--allow-read DIR/,
    );
    const resumed = await runCli(['resume', 'runs', '--allow-read', '../../shared'], { cwd: dir });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'runs', 'work', 'prompt.md'), 'utf8')).toContain(
      'Shared plan prompt.',
    );
  }, 60_000);
});
