import { join } from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.js';
import type { NodeHandler } from '../handler-types.js';
import type { HandlerRegistry } from '../registry.js';
import { writeStatusFile } from '../status-file.js';

/** In a dry run a tool node records the command it would run instead of running it. */
const dryRunToolHandler: NodeHandler = async ({ node, stageDir }) => {
  const command = node.attrs.tool_command ?? '';
  writeFileAtomic(join(stageDir, 'command.sh'), `${command}\n`, { durable: false });
  const outcome = {
    status: 'success' as const,
    notes: `dry run: did not execute \`${command}\``,
    context_updates: { 'tool.output': '', 'tool.exit_code': 0 },
  };
  writeStatusFile(join(stageDir, 'status.json'), outcome);
  return outcome;
};

/** The registry a dry run uses: the given one with side-effecting handlers replaced. */
export function withDryRunHandlers(registry: HandlerRegistry): HandlerRegistry {
  return registry.register('tool', dryRunToolHandler);
}
