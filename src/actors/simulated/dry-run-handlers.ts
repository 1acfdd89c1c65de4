import { join } from 'node:path';
import { writeFileAtomicAsync } from '../../shared/atomic-write.js';
import type { NodeHandler } from '../handler-types.js';
import type { HandlerRegistry } from '../registry.js';
import { writeStatusFileAsync } from '../status-file.js';

/** In a dry run a tool node records the command it would run instead of running it. */
const dryRunToolHandler: NodeHandler = async ({ node, stageDir }) => {
  const command = node.attrs.tool_command ?? '';
  await writeFileAtomicAsync(join(stageDir, 'command.sh'), `${command}\n`, { durable: false });
  const outcome = {
    status: 'success' as const,
    notes: `dry run: did not execute \`${command}\``,
    context_updates: { 'tool.output': '', 'tool.exit_code': 0 },
  };
  await writeStatusFileAsync(join(stageDir, 'status.json'), outcome);
  return outcome;
};

/** The registry a dry run uses: the given one with side-effecting handlers replaced. */
export function withDryRunHandlers(registry: HandlerRegistry): HandlerRegistry {
  return registry.register('tool', dryRunToolHandler);
}
