import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-params-'));
  dirs.push(dir);
  writeFileSync(
    path.join(dir, 'p.dot'),
    `digraph params {
  graph [goal="Ship it", vars="feature, env=staging"]
  start [shape=Mdiamond]
  work [prompt="Build $feature for $env ($goal); $features stays"]
  deploy [shape=parallelogram, tool_command="echo deploying $feature to $env"]
  prod [prompt="Announce $feature"]
  exit [shape=Msquare]
  start -> work -> deploy
  deploy -> prod [condition="vars.env=prod"]
  deploy -> exit
  prod -> exit
}`,
  );
  writeFileSync(path.join(dir, 's.json'), '{}');
  return dir;
}

describe('pipeline parameters: vars, --set, $name, vars.<name>', () => {
  it('--set values expand in prompts and tool commands (whole words) and route through vars.<name>', async () => {
    const dir = workspace();
    const r = await runCli(
      [
        'run',
        'p.dot',
        '--scenario',
        's.json',
        '--set',
        'feature=login',
        '--set',
        'env=prod',
        '--logs-dir',
        'run',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(dir, 'run', 'work', 'prompt.md'), 'utf8')).toContain(
      'Build login for prod (Ship it); $features stays',
    );
    expect(readFileSync(path.join(dir, 'run', 'deploy', 'stdout.log'), 'utf8')).toBe(
      'deploying login to prod\n',
    );
    expect(r.stdout).toMatch(/→ prod/);
    const checkpoint = JSON.parse(readFileSync(path.join(dir, 'run', 'checkpoint.json'), 'utf8'));
    expect(checkpoint.context).toMatchObject({ 'vars.feature': 'login', 'vars.env': 'prod' });
  });

  it('a value from --set or --goal is never run as shell syntax: tool commands read it from the environment', async () => {
    const dir = workspace();
    // Pasted into `echo deploying $feature to $env`, this would run `touch pwned`.
    const hostile = "'; touch pwned; echo '";
    writeFileSync(
      path.join(dir, 'goal.dot'),
      `digraph g { start [shape=Mdiamond]; say [shape=parallelogram, tool_command="echo goal=$goal"]; exit [shape=Msquare]; start -> say -> exit }`,
    );
    const set = await runCli(
      ['run', 'p.dot', '--scenario', 's.json', '--set', `feature=${hostile}`, '--logs-dir', 'run'],
      { cwd: dir },
    );
    expect(set.code).toBe(0);
    const goal = await runCli(
      ['run', 'goal.dot', '--scenario', 's.json', '--goal', hostile, '--logs-dir', 'run2'],
      {
        cwd: dir,
      },
    );
    expect(goal.code).toBe(0);
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
    expect(readFileSync(path.join(dir, 'run', 'deploy', 'stdout.log'), 'utf8')).toBe(
      "deploying '; touch pwned; echo ' to staging\n",
    );
    expect(readFileSync(path.join(dir, 'run2', 'say', 'stdout.log'), 'utf8')).toBe(
      "goal='; touch pwned; echo '\n",
    );
  });

  it("the goal's and the graph label's $name expand: the header, events and manifest name the values", async () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'g.dot'),
      `digraph g {
  graph [goal="Ship $feature to $env", label="$feature release", vars="feature, env=staging"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  start -> exit
}`,
    );
    const r = await runCli(['run', 'g.dot', '--dry-run', '--set', 'feature=login', '--logs-dir', 'run'], {
      cwd: dir,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^▶ g — Ship login to staging$/m);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'run', 'manifest.json'), 'utf8'));
    expect(manifest.goal).toBe('Ship login to staging');
    const start = JSON.parse(
      readFileSync(path.join(dir, 'run', 'events.jsonl'), 'utf8').split('\n')[0] ?? '',
    );
    expect(start.data.goal).toBe('Ship login to staging');
    const svg = await runCli(['compile', 'g.dot', '--format', 'svg'], { cwd: dir });
    // Compiled without values, the pipeline is shown as written.
    expect(svg.stdout).toContain('Ship $feature to $env');
  });

  it('a default applies when --set does not give the value', async () => {
    const dir = workspace();
    const r = await runCli(
      ['run', 'p.dot', '--scenario', 's.json', '--set', 'feature=x', '--logs-dir', 'run'],
      {
        cwd: dir,
      },
    );
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(dir, 'run', 'deploy', 'stdout.log'), 'utf8')).toBe(
      'deploying x to staging\n',
    );
    expect(r.stdout).not.toMatch(/→ prod/);
  });

  it.each([
    [
      [],
      'attractor: pipeline parameter "feature" has no value: pass --set feature=VALUE, or give it a default (vars="feature=…").\n',
    ],
    [
      ['--set', 'featur=x'],
      'attractor: --set featur: the pipeline has no parameter "featur" (did you mean "feature"?); it declares: feature, env.\n',
    ],
  ])('%j is an error before the run starts (exit 1, nothing written)', async (extra, message) => {
    const dir = workspace();
    const r = await runCli(['run', 'p.dot', '--scenario', 's.json', '--logs-dir', 'run', ...extra], {
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(message);
    expect(r.stdout).toBe('');
  });

  it('a malformed --set is a bad command line (exit 2)', async () => {
    const r = await runCli(['run', 'p.dot', '--set', 'novalue'], { cwd: workspace() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--set <name=value>' argument 'novalue' is invalid\. Expected name=value\./);
  });

  it('validate warns about a $name used but not declared; compile --format json shows the parameters', async () => {
    const dir = workspace();
    const v = await runCli(['validate', 'p.dot'], { cwd: dir });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(
      /^p\.dot:4:\d+: warning vars_declared: Node "work" uses \$features, which is not a declared/m,
    );
    const c = await runCli(['compile', 'p.dot', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(c.stdout).params).toEqual([{ name: 'feature' }, { name: 'env', default: 'staging' }]);
  });

  it('resume keeps the values of the original run', async () => {
    const dir = workspace();
    const r = await runCli(
      [
        'run',
        'p.dot',
        '--scenario',
        's.json',
        '--set',
        'feature=login',
        '--set',
        'env=prod',
        '--logs-dir',
        'run',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    // Rewind the finished run to before `deploy`, as an interruption there would leave it.
    const file = path.join(dir, 'run', 'checkpoint.json');
    const checkpoint = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(
      file,
      JSON.stringify({
        ...checkpoint,
        status: 'paused',
        current_node: 'deploy',
        completed_nodes: ['start', 'work'],
      }),
    );
    rmSync(path.join(dir, 'run', 'deploy'), { recursive: true });
    const again = await runCli(['resume', 'run'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(readFileSync(path.join(dir, 'run', 'deploy', 'stdout.log'), 'utf8')).toBe(
      'deploying login to prod\n',
    );
    expect(again.stdout).toMatch(/→ prod/);
  });
});
