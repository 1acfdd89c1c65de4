import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandProgram, findExecutable } from '../../../src/actors/acp/find-executable.js';
import { preflightAgents } from '../../../src/actors/acp/preflight-agents.js';
import { loadPipeline } from '../../../src/compiler/compile.js';

const graph = (attrs: string) =>
  loadPipeline(`digraph g {
  start [shape=Mdiamond]
  a [prompt="x", ${attrs}]
  b [prompt="y", ${attrs}]
  plain [prompt="z"]
  exit [shape=Msquare]
  start -> a -> b -> plain -> exit
}`).graph;

const nodeDir = path.dirname(process.execPath);

describe('preflightAgents', () => {
  it('returns the agent nodes when their binaries are on PATH', () => {
    const nodes = preflightAgents(
      graph(`agent="acp", agent_command="node agent.mjs"`),
      { commands: {} },
      { PATH: nodeDir },
      '/',
    );
    expect(nodes.map((n) => n.nodeId)).toEqual(['a', 'b']);
  });

  it('refuses a missing binary once per command, naming nodes, command and install line', () => {
    const run = () => preflightAgents(graph('agent="codex"'), { commands: {} }, { PATH: nodeDir }, '/');
    expect(run).toThrow(
      /agent "codex" for nodes a, b: command "codex-acp" .*npm install -g @agentclientprotocol\/codex-acp/,
    );
  });

  it('refuses an unknown agent name or permission policy before the run', () => {
    const env = { PATH: nodeDir };
    expect(() => preflightAgents(graph('agent="cursor"'), { commands: {} }, env, '/')).toThrow(
      /unknown agent "cursor"/,
    );
    expect(() =>
      preflightAgents(
        graph('agent="acp", agent_command="node", agent_permissions="maybe"'),
        { commands: {} },
        env,
        '/',
      ),
    ).toThrow(/node a: agent_permissions="maybe" must be allow, deny or ask/);
  });

  it('uses the configured command', () => {
    expect(() =>
      preflightAgents(
        graph('agent="gemini"'),
        { commands: { gemini: 'node --version' } },
        { PATH: nodeDir },
        '/',
      ),
    ).not.toThrow();
  });
});

describe('commandProgram / findExecutable', () => {
  it.each([
    ['gemini --acp', 'gemini'],
    ['FOO=1 BAR="a b" my-agent --x', 'my-agent'],
    ['"/opt/my agent/bin" --acp', '/opt/my agent/bin'],
  ])('%s → %s', (command, program) => {
    expect(commandProgram(command)).toBe(program);
  });

  it('finds by PATH or by path, not directories or missing files', () => {
    expect(findExecutable('node', nodeDir, '/')).toBe(process.execPath);
    expect(findExecutable(process.execPath, '', '/')).toBe(process.execPath);
    expect(findExecutable('node', '/nonexistent', '/')).toBeUndefined();
    expect(findExecutable(nodeDir, '', '/')).toBeUndefined();
  });
});
