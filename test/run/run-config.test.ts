import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Question } from '../../src/actors/interviewers/interviewer.js';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { parseScenario } from '../../src/actors/simulated/scenario.js';
import type { RunOptions } from '../../src/index.js';
import { type RunConfig, type RunSettings, resolveRunConfig } from '../../src/run/run-config.js';
import { type RunServices, resolveRunServices } from '../../src/run/run-services.js';
import type { SandboxSettings } from '../../src/shared/sandbox/sandbox-settings.js';

const SANDBOX_ON: SandboxSettings = {
  mode: 'on',
  bwrap: '/usr/bin/bwrap',
  allowOff: true,
  hidden: [],
  writable: [],
};
const RUNS = path.resolve('/srv/runs');
const RUN_DIR = path.join(RUNS, 'g', 'r1');

describe('resolveRunConfig: a run’s settings, every default applied once', () => {
  it.each<[string, RunSettings, Partial<RunConfig>]>([
    [
      'nothing said: durable, no tree, no history',
      { sandbox: { mode: 'off' } },
      {
        durable: true,
        tree: undefined,
        checkpointDir: undefined,
        workingDir: undefined,
        treeDir: process.cwd(),
      },
    ],
    ['durable: false kept', { durable: false, sandbox: { mode: 'off' } }, { durable: false }],
    [
      'a working folder and a history folder kept',
      { workingDir: '/w', checkpointDir: '/h', sandbox: { mode: 'off' } },
      { workingDir: '/w', treeDir: '/w', checkpointDir: '/h' },
    ],
    [
      'model and provider go into the manifest before the caller’s own',
      { model: 'm', provider: 'p', manifestOptions: { dry_run: true }, sandbox: { mode: 'off' } },
      { manifestOptions: { model: 'm', provider: 'p', dry_run: true } },
    ],
    ['the sandbox off stays off', { sandbox: { mode: 'off' } }, { sandbox: { mode: 'off' } }],
    [
      'the sandbox on: the run’s folder writable, the other runs hidden',
      { sandbox: SANDBOX_ON, runsRoot: RUNS },
      { sandbox: { ...SANDBOX_ON, hidden: [RUNS], writable: [RUN_DIR] } },
    ],
  ])('%s', (_name, settings, expected) => {
    expect(resolveRunConfig(settings, RUN_DIR)).toMatchObject(expected);
  });

  it('keeps the manifest’s options in the order manifest.json has always had them', () => {
    const { manifestOptions } = resolveRunConfig(
      { provider: 'p', model: 'm', manifestOptions: { workdir: '/w' } },
      RUN_DIR,
    );
    expect(Object.keys(manifestOptions)).toEqual(['model', 'provider', 'workdir']);
  });

  it('leaves no field for an inner layer to default: every key is present', () => {
    expectTypeOf<Required<RunConfig>>().toEqualTypeOf<RunConfig>();
    expect(Object.keys(resolveRunConfig({ sandbox: { mode: 'off' } }, RUN_DIR)).sort()).toEqual([
      'checkpointDir',
      'durable',
      'identity',
      'manifestOptions',
      'sandbox',
      'tree',
      'treeDir',
      'workingDir',
    ]);
  });
});

describe('resolveRunServices: the one services object', () => {
  it('carries the services and nothing else the caller’s options held', () => {
    const registry = createDefaultRegistry();
    const onEvent = (): void => {};
    const options: RunOptions & { source: string } = {
      source: 'digraph {}',
      runDir: '/r',
      workingDir: '/w',
      durable: false,
      registry,
      onEvent,
    };
    const services = resolveRunServices(options);
    expect(services.registry).toBe(registry);
    expect(services.onEvent).toBe(onEvent);
    expect(Object.keys(services).sort()).toEqual([
      'accounting',
      'backend',
      'inspect',
      'interviewer',
      'llmRank',
      'onEvent',
      'onWarnings',
      'random',
      'recordSink',
      'registry',
      'scenario',
      'telemetry',
    ]);
  });

  const gate = (stage: string): Question => ({
    text: 'Go?',
    type: 'yes_no',
    stage,
    options: [
      { key: 'Y', label: 'Yes' },
      { key: 'N', label: 'No' },
    ],
  });

  it('lets a scenario answer the gates it scripts and the interviewer the others', async () => {
    const scenario = parseScenario(JSON.stringify({ answers: { ask: ['N'] } }));
    const asked: string[] = [];
    const services = resolveRunServices({
      scenario,
      interviewer: {
        ask: async (q) => {
          asked.push(q.stage);
          return { selected: q.options[0] };
        },
      },
    });
    const signal = new AbortController().signal;
    expect(await services.interviewer?.ask(gate('ask'), signal)).toMatchObject({ selected: { key: 'N' } });
    expect(await services.interviewer?.ask(gate('other'), signal)).toMatchObject({ selected: { key: 'Y' } });
    expect(asked).toEqual(['other']);
  });

  it('fails a gate the scenario does not script when nobody answers gates', async () => {
    const services = resolveRunServices({ scenario: parseScenario(JSON.stringify({ answers: {} })) });
    await expect(services.interviewer?.ask(gate('other'), new AbortController().signal)).rejects.toThrow(
      /without an interviewer/,
    );
  });
});

describe('RunOptions: the public input stays what it was', () => {
  it('is the settings and the services: the 25 fields it had, telemetry and identity', () => {
    expectTypeOf<RunOptions>().toExtend<RunSettings & RunServices>();
    expectTypeOf<RunSettings & RunServices>().toExtend<RunOptions>();
    expectTypeOf<keyof RunOptions>().toEqualTypeOf<
      | 'telemetry'
      | 'identity'
      | 'goal'
      | 'vars'
      | 'model'
      | 'provider'
      | 'runDir'
      | 'runsRoot'
      | 'sandbox'
      | 'checkpointDir'
      | 'maxSteps'
      | 'scenario'
      | 'interviewer'
      | 'backend'
      | 'registry'
      | 'llmRank'
      | 'accounting'
      | 'onEvent'
      | 'onWarnings'
      | 'inspect'
      | 'manifestOptions'
      | 'workingDir'
      | 'readScope'
      | 'durable'
      | 'recordSink'
      | 'tree'
      | 'random'
    >();
  });
});
