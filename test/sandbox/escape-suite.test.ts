import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolHandler } from '../../src/actors/handlers/tool.js';
import { LocalExecutionEnvironment } from '../../src/agent/environment/local-execution-environment.js';
import { runToolHooks } from '../../src/agent/hooks/run-tool-hooks.js';
import { nodeSandbox, type SandboxSettings } from '../../src/shared/sandbox/sandbox-settings.js';
import { createFakeServices, makeInput } from '../actors/helpers/fake-services.js';
import { makeGraph, makeNode } from '../actors/helpers/graph-builders.js';
import { requireBwrap, SANDBOX_AVAILABLE, SANDBOX_REQUIRED } from '../helpers/sandbox-available.js';
import { tempDir } from '../helpers/temp-dir.js';
import { type Attempted, ESCAPE_ATTEMPTS } from './escape-attempts.js';
import { type EscapeHost, makeEscapeHost } from './escape-fixture.js';

type Channel = (host: EscapeHost, settings: SandboxSettings, command: string) => Promise<Attempted>;

function environment(host: EscapeHost, settings: SandboxSettings): LocalExecutionEnvironment {
  const sandbox = nodeSandbox(settings, {}, {}, [host.work]);
  return new LocalExecutionEnvironment({
    workingDir: host.work,
    baseEnv: host.env,
    ...(sandbox ? { sandbox } : {}),
  });
}

/** The three ways a pipeline runs a command: the agent's shell, a tool node, a tool hook. */
const CHANNELS: Record<string, Channel> = {
  "the agent's shell": async (host, settings, command) => {
    const result = await environment(host, settings).execCommand(command, { timeoutMs: 20_000 });
    return { exitCode: result.exitCode, output: `${result.stdout}${result.stderr}` };
  },
  'a tool node': async (host, settings, command) => {
    const node = makeNode('escape', { shape: 'parallelogram', tool_command: command });
    const input = makeInput({
      node,
      graph: makeGraph({ nodes: [node] }),
      runDir: host.root,
      services: createFakeServices({ sandbox: settings }),
      extra: { workingDir: host.work },
    });
    const outcome = await createToolHandler({ env: host.env, killGraceMs: 300 })(input);
    const code = Number(outcome.context_updates?.['tool.exit_code'] ?? -1);
    return {
      exitCode: code,
      output: `${String(outcome.context_updates?.['tool.output'] ?? '')}\n${outcome.failure_reason ?? ''}`,
    };
  },
  'a tool hook': async (host, settings, command) => {
    const meta = { toolName: 'shell', callId: 'c1', arguments: {} };
    const hooked = await runToolHooks(
      { pre: command },
      meta,
      async () => ({ output: 'ran', isError: false }),
      {
        env: environment(host, settings),
      },
    );
    const hook = hooked.hooks[0];
    return { exitCode: hook?.exitCode ?? -1, output: hook?.output ?? '' };
  },
};

describe.runIf(SANDBOX_AVAILABLE || SANDBOX_REQUIRED)('escape attempts through every channel', () => {
  let host: EscapeHost;
  let on: SandboxSettings;
  const off: SandboxSettings = { mode: 'off' };
  // Made here, not in beforeAll: tempDir's cleanup registered while hooks run would be dropped.
  const root = tempDir('attractor-escape-');
  beforeAll(async () => {
    host = await makeEscapeHost(root);
    on = {
      mode: 'on',
      bwrap: requireBwrap(),
      allowOff: true,
      hidden: host.hidden,
      writable: [],
      maxProcesses: 50,
    };
  });
  afterAll(async () => {
    await host?.close();
  });

  describe.each(Object.entries(CHANNELS))('through %s', (_channel, run) => {
    it.each(ESCAPE_ATTEMPTS)(
      '$name is blocked, and says so',
      async (attempt) => {
        const tag = randomUUID().slice(0, 8);
        const result = await run(host, on, attempt.command(host, tag));
        expect(result.exitCode, result.output).not.toBe(0);
        if (attempt.says) expect(result.output).toMatch(attempt.says);
        if (attempt.leaks) expect(result.output).not.toContain(attempt.leaks(host));
        if (attempt.check) expect(attempt.check(host, tag)).toBe(true);
      },
      30_000,
    );

    it.each(ESCAPE_ATTEMPTS.filter((attempt) => attempt.off))(
      '$name works with the sandbox off (so the walls are what stopped it)',
      async (attempt) => {
        const tag = randomUUID().slice(0, 8);
        const result = await run(host, off, attempt.command(host, tag));
        expect(result.exitCode, result.output).toBe(0);
        expect(result.output.trim()).toMatch(attempt.off?.(host) ?? /never/);
        // The fsmonitor it planted must not run in the next test's git commands.
        spawnSync('git', ['-C', host.work, 'config', '--unset-all', 'core.fsmonitor']);
      },
      30_000,
    );
  });
});
