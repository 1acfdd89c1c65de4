import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_INIT_TIMEOUT_MS, loadAgentConfig } from '../../../src/actors/acp/agent-config.js';
import { resolveAgentCommand } from '../../../src/actors/acp/resolve-agent-command.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function project(config?: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'attractor-agent-config-'));
  dirs.push(dir);
  if (config !== undefined) {
    writeFileSync(
      path.join(dir, 'attractor.config.json'),
      typeof config === 'string' ? config : JSON.stringify(config),
    );
  }
  return dir;
}

describe('resolveAgentCommand', () => {
  const commands = { claude: 'npx -y @agentclientprotocol/claude-agent-acp', mine: 'my-agent --acp' };
  it.each([
    [{ agent: 'gemini' }, 'gemini --acp'],
    [{ agent: 'Codex' }, 'codex-acp'],
    [{ agent: 'claude' }, 'npx -y @agentclientprotocol/claude-agent-acp'],
    [{ agent: 'claude', agent_command: 'claude-agent-acp --debug' }, 'claude-agent-acp --debug'],
    [{ agent: 'mine' }, 'my-agent --acp'],
    [{ agent: 'acp', agent_command: './agent.sh' }, './agent.sh'],
  ])('%o → %s', (attrs, command) => {
    expect(resolveAgentCommand(attrs, { commands })?.command).toBe(command);
  });

  it('no agent → undefined; unknown or command-less acp → a clear error', () => {
    expect(resolveAgentCommand({}, { commands })).toBeUndefined();
    expect(() => resolveAgentCommand({ agent: 'acp' }, { commands })).toThrow(/needs agent_command/);
    expect(() => resolveAgentCommand({ agent: 'cursor' }, { commands })).toThrow(
      /unknown agent "cursor".*ATTRACTOR_AGENT_CURSOR_COMMAND/,
    );
  });
});

describe('loadAgentConfig', () => {
  it('reads attractor.config.json; environment variables override it', () => {
    const dir = project({
      agents: {
        commands: { claude: 'from-file', gemini: 'gemini-file' },
        init_timeout: '10s',
        mcp_servers: [{ name: 'm', command: 'mcp' }],
      },
    });
    const config = loadAgentConfig(dir, {
      ATTRACTOR_AGENT_CLAUDE_COMMAND: 'from-env',
      ATTRACTOR_AGENT_CANCEL_GRACE: '250ms',
    });
    expect(config.commands).toEqual({ claude: 'from-env', gemini: 'gemini-file' });
    expect(config.initTimeoutMs).toBe(10_000);
    expect(config.cancelGraceMs).toBe(250);
    expect(config.mcpServers).toEqual([{ name: 'm', command: 'mcp', args: [], env: {} }]);
  });

  it('defaults without a file', () => {
    expect(loadAgentConfig(project(), {})).toMatchObject({
      commands: {},
      mcpServers: [],
      initTimeoutMs: DEFAULT_INIT_TIMEOUT_MS,
    });
  });

  it.each([
    ['{not json', /is not valid JSON/],
    [{ agents: { commands: { claude: 3 } } }, /agents\.commands\.claude/],
    [{ agents: { init_timeout: 'soon' } }, /"soon" is not a duration/],
  ])('a malformed file is a clear error (%s)', (content, message) => {
    expect(() => loadAgentConfig(project(content), {})).toThrow(message);
  });
});
