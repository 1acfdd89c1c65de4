import * as z from 'zod';
import { definedFields } from '../../shared/defined-fields.js';
import { type AgentTool, type AgentToolResult, defineTool } from '../tools/define-tool.js';
import type { SubagentManager, SubagentReply } from './subagent-manager.js';

const result = (reply: SubagentReply): AgentToolResult => ({ output: reply.text, isError: !reply.ok });

const spawnParameters = z.object({
  task: z.string().min(1).describe('What the subagent must do, self-contained.'),
  working_dir: z.string().optional().describe('Not supported: subagents work in your working directory.'),
  model: z.string().optional().describe('Model for the subagent; defaults to yours.'),
  max_turns: z.number().int().min(0).optional().describe('Model round-trips allowed; 0 = unlimited.'),
});
const sendParameters = z.object({
  agent_id: z.string().describe('The id spawn_agent returned.'),
  message: z.string().min(1),
});
const agentIdParameters = z.object({ agent_id: z.string().describe('The id spawn_agent returned.') });

type Bound<P> = (manager: SubagentManager, args: P, signal: AbortSignal) => Promise<AgentToolResult>;

interface SubagentToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  parameters: S;
  run: Bound<z.output<S>>;
}

function spec<S extends z.ZodObject>(s: SubagentToolSpec<S>): SubagentToolSpec<z.ZodObject> {
  return s as unknown as SubagentToolSpec<z.ZodObject>;
}

const SPECS = [
  spec({
    name: 'spawn_agent',
    description:
      'Start a subagent on a delegated task. It shares your working directory but has its own conversation. Returns its agent_id; call wait to get its answer.',
    parameters: spawnParameters,
    run: async (manager, args) => {
      if (args.working_dir !== undefined && args.working_dir !== '.' && args.working_dir !== '') {
        return {
          output: 'spawn_agent: working_dir is not supported; subagents share your working directory.',
          isError: true,
        };
      }
      return result(
        manager.spawn({
          task: args.task,
          ...(args.model ? { model: args.model } : {}),
          ...definedFields({ maxTurns: args.max_turns }),
        }),
      );
    },
  }),
  spec({
    name: 'send_input',
    description: 'Send a message to a subagent: queued after its current work, or started if it is idle.',
    parameters: sendParameters,
    run: async (manager, args) => result(manager.send(args.agent_id, args.message)),
  }),
  spec({
    name: 'wait',
    description: 'Wait until a subagent finishes and return its answer (its text output).',
    parameters: agentIdParameters,
    run: async (manager, args, signal) => result(await manager.wait(args.agent_id, signal)),
  }),
  spec({
    name: 'close_agent',
    description: 'Stop a subagent and free its resources.',
    parameters: agentIdParameters,
    run: async (manager, args) => result(await manager.close(args.agent_id)),
  }),
];

/** JSON schemas are derived once per process, not per session (every subagent is a session). */
let declared: AgentTool[] | undefined;

/** spawn_agent, send_input, wait and close_agent over one session's subagents. */
export function createSubagentTools(manager: SubagentManager): AgentTool[] {
  declared ??= SPECS.map(
    (s) =>
      defineTool({
        name: s.name,
        description: s.description,
        parameters: s.parameters,
        execute: async () => ({ output: `${s.name} is not bound to a session`, isError: true }),
      }) as AgentTool,
  );
  return declared.map((tool, i) => ({
    ...tool,
    execute: (args: unknown, ctx) => SPECS[i]!.run(manager, args as never, ctx.signal),
  }));
}
