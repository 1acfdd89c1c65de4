import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { parseDurationMs } from '../../compiler/attributes/parse-duration.js';
import { AttractorError } from '../../shared/errors.js';

/** The project config file, looked up in the run's working directory. */
export const AGENT_CONFIG_FILE = 'attractor.config.json';

const mcpServerSchema = z.union([
  z.object({
    name: z.string().min(1),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
  }),
  z.object({
    name: z.string().min(1),
    type: z.enum(['http', 'sse']),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
  }),
]);

const agentConfigFileSchema = z.object({
  agents: z
    .object({
      /** Name → command; overrides a built-in name's default, or defines a new name. */
      commands: z.record(z.string(), z.string().min(1)).default({}),
      /** MCP servers handed to every agent session (`session/new` `mcpServers`). */
      mcp_servers: z.array(mcpServerSchema).default([]),
      /** How long an agent may take to answer `initialize`, e.g. `30s`. */
      init_timeout: z.string().optional(),
      /** Between `session/cancel` and killing the agent's process group, e.g. `5s`. */
      cancel_grace: z.string().optional(),
    })
    .default({ commands: {}, mcp_servers: [] }),
});

export type McpServerConfig = z.infer<typeof mcpServerSchema>;

export interface AgentConfig {
  commands: Record<string, string>;
  mcpServers: McpServerConfig[];
  initTimeoutMs: number;
  cancelGraceMs: number;
}

export const DEFAULT_INIT_TIMEOUT_MS = 60_000;
export const DEFAULT_CANCEL_GRACE_MS = 5_000;

/** `ATTRACTOR_AGENT_CLAUDE_COMMAND` → `claude`. */
const COMMAND_ENV = /^ATTRACTOR_AGENT_([A-Z0-9_]+)_COMMAND$/;

function duration(value: string | undefined, what: string, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const ms = parseDurationMs(value);
  if (ms === undefined) {
    throw new AttractorError(
      'AGENT_CONFIG_INVALID',
      `${what}: "${value}" is not a duration (e.g. 30s, 500ms).`,
    );
  }
  return ms;
}

/**
 * The agent settings of a run: `attractor.config.json` in the working directory, then environment
 * variables over it (`ATTRACTOR_AGENT_<NAME>_COMMAND`, `ATTRACTOR_AGENT_INIT_TIMEOUT`,
 * `ATTRACTOR_AGENT_CANCEL_GRACE`). A malformed file is a clear error, not a silent default.
 *
 * @example
 * // attractor.config.json: {"agents": {"commands": {"claude": "npx -y @agentclientprotocol/claude-agent-acp"}}}
 * loadAgentConfig('/repo', process.env).commands.claude
 */
export function loadAgentConfig(
  workingDir: string,
  env: Readonly<Record<string, string | undefined>>,
): AgentConfig {
  const file = path.join(workingDir, AGENT_CONFIG_FILE);
  let fromFile: z.infer<typeof agentConfigFileSchema>['agents'] = { commands: {}, mcp_servers: [] };
  if (existsSync(file)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (cause) {
      throw new AttractorError(
        'AGENT_CONFIG_INVALID',
        `${file} is not valid JSON: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
    const parsed = agentConfigFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AttractorError(
        'AGENT_CONFIG_INVALID',
        `${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}.`,
      );
    }
    fromFile = parsed.data.agents;
  }
  const commands: Record<string, string> = { ...fromFile.commands };
  for (const [name, value] of Object.entries(env)) {
    const match = COMMAND_ENV.exec(name);
    if (match && value && value.trim() !== '') commands[(match[1] as string).toLowerCase()] = value;
  }
  return {
    commands,
    mcpServers: fromFile.mcp_servers,
    initTimeoutMs: duration(
      env.ATTRACTOR_AGENT_INIT_TIMEOUT ?? fromFile.init_timeout,
      'agent init timeout',
      DEFAULT_INIT_TIMEOUT_MS,
    ),
    cancelGraceMs: duration(
      env.ATTRACTOR_AGENT_CANCEL_GRACE ?? fromFile.cancel_grace,
      'agent cancel grace',
      DEFAULT_CANCEL_GRACE_MS,
    ),
  };
}
