/**
 * An unknown handler type would run as a coding agent with a shell: wherever the handlers that run are
 * known (`run`, `validate`, the server and its workers) it is an error, naming the known types with a
 * did-you-mean; `validate --known-type` declares an embedder's own; a library caller running its own
 * registry keeps a warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { createSimulatedBackend } from '../../src/actors/simulated/simulated-backend.js';
import { compile } from '../../src/compiler/compile.js';
import { compileRun, startPipeline } from '../../src/run/engine.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closeServers, testServer } from '../server/server-fixtures.js';
import { runCli } from './run-cli.js';

afterEach(closeServers);

const pipeline = (type: string) => `digraph p {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [type="${type}", prompt="Ship it"]
  start -> work -> exit
}
`;

function write(text: string): string {
  const file = path.join(tempDir(), 'p.dot');
  fs.writeFileSync(file, text);
  return file;
}

describe('an unknown handler type', () => {
  it.each([
    ['deploy', /handler type "deploy", which is not a known handler\./],
    ['tol', /handler type "tol", which is not a known handler \(did you mean "tool"\?\)/],
    ['wait_human', /\(did you mean "wait\.human"\?\)/],
  ])('type="%s": validate and run refuse it, naming the known types', async (type, message) => {
    const file = write(pipeline(type));
    const validated = await runCli(['validate', file]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toMatch(/error type_known: /);
    expect(validated.stdout).toMatch(message);
    expect(validated.stdout).toContain('codergen, wait.human, conditional, parallel');
    const run = await runCli(['run', '--dry-run', '--no-tui', file], { cwd: path.dirname(file) });
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toMatch(message);
    expect(fs.existsSync(path.join(path.dirname(file), '.attractor-runs'))).toBe(false);
  });

  it('validate --known-type declares the types an application registers (repeatable)', async () => {
    const file = write(
      pipeline('deploy')
        .replace('exit [', 'gate [type="audit"]\n  exit [')
        .replace('work -> exit', 'work -> gate -> exit'),
    );
    const refused = await runCli(['validate', file, '--known-type', 'deploy']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('"audit"');
    const accepted = await runCli(['validate', file, '--known-type', 'deploy', '--known-type', 'audit']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('valid');
  });

  it('the server refuses it at submission (400, the diagnostic located)', async () => {
    const server = await testServer();
    const refused = await server.json('POST', '/pipelines', {
      dot_source: pipeline('deploy'),
      dry_run: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_PIPELINE');
    expect(refused.body.error.diagnostics).toEqual([
      expect.objectContaining({ rule: 'type_known', severity: 'error', node_id: 'work' }),
    ]);
  });

  it('a library compile without a registry refuses it; a run with a registry of its own warns', async () => {
    expect(() => compile(pipeline('deploy'))).toThrow(/not a known handler/);
    const registry = createDefaultRegistry().register('audit', async () => ({ status: 'success' }));
    const compiled = compileRun({ source: pipeline('deploy'), registry });
    expect(compiled.diagnostics).toEqual([
      expect.objectContaining({ rule: 'type_known', severity: 'warning', node_id: 'work' }),
    ]);
    const run = startPipeline({
      source: pipeline('deploy'),
      compiled,
      backend: createSimulatedBackend(),
      registry,
      runsRoot: tempDir(),
      durable: false,
    });
    expect((await run.result).status).toBe('completed');
  });
});
