import { z } from 'zod';
import { type AgentTool, type AgentToolResult, defineTool } from '../tools/define-tool.js';
import type { SubagentManager, SubagentReply } from './subagent-manager.js';

const result = (reply: SubagentReply): AgentToolResult => ({ output: reply.text, isError: !reply.ok });

/** spawn_agent, send_input, wait and close_agent (api-reference §7) over one session's subagents. */
export function createSubagentTools(manager: SubagentManager): AgentTool[] {
  return [
    defineTool({
      name: 'spawn_agent',
      description:
        'Start a subagent on a delegated task. It shares your working directory but has its own conversation. Returns its agent_id; call wait to get its answer.',
      parameters: z.object({
        task: z.string().min(1).describe('What the subagent must do, self-contained.'),
        working_dir: z
          .string()
          .optional()
          .describe('Not supported: subagents work in your working directory.'),
        model: z.string().optional().describe('Model for the subagent; defaults to yours.'),
        max_turns: z.number().int().min(0).optional().describe('Model round-trips allowed; 0 = unlimited.'),
      }),
      execute: async (args) => {
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
            ...(args.max_turns !== undefined ? { maxTurns: args.max_turns } : {}),
          }),
        );
      },
    }),
    defineTool({
      name: 'send_input',
      description: 'Send a message to a subagent: queued after its current work, or started if it is idle.',
      parameters: z.object({
        agent_id: z.string().describe('The id spawn_agent returned.'),
        message: z.string().min(1),
      }),
      execute: async (args) => result(manager.send(args.agent_id, args.message)),
    }),
    defineTool({
      name: 'wait',
      description: 'Wait until a subagent finishes and return its answer (its text output).',
      parameters: z.object({ agent_id: z.string().describe('The id spawn_agent returned.') }),
      execute: async (args, ctx) => result(await manager.wait(args.agent_id, ctx.signal)),
    }),
    defineTool({
      name: 'close_agent',
      description: 'Stop a subagent and free its resources.',
      parameters: z.object({ agent_id: z.string().describe('The id spawn_agent returned.') }),
      execute: async (args) => result(await manager.close(args.agent_id)),
    }),
  ] as AgentTool[];
}
