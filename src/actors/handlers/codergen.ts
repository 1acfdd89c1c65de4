import { join } from 'node:path';
import type { Outcome } from '../../compiler/outcome.js';
import { writeFileAtomicAsync } from '../../shared/atomic-write.js';
import { definedFields } from '../../shared/defined-fields.js';
import { parseEnvPassthrough } from '../../shared/process/filter-secret-env.js';
import { removeFileAsync } from '../../shared/remove-file.js';
import { nodeSandbox, sandboxOrDefault } from '../../shared/sandbox/sandbox-settings.js';
import type { HandlerServices, NodeHandler } from '../handler-types.js';
import { expandContextKeys } from '../prompt/expand-context-keys.js';
import { renderContextSummary } from '../prompt/render-context-summary.js';
import { resolvePromptTemplate } from '../prompt/resolve-prompt-template.js';
import { readStatusFile, writeStatusFileAsync } from '../status-file.js';

/** `last_response` carries the first 200 characters of the response. */
const LAST_RESPONSE_LENGTH = 200;

/**
 * Runs a prompt through the configured backend and records `prompt.md`, `response.md` and `status.json`
 * in the stage directory. The outcome comes, in order, from a `status.json` an external agent wrote
 * during the call (the status-file contract), from the backend's own outcome, else SUCCESS.
 */
export const codergenHandler: NodeHandler = async (input) => {
  const { node, graph, context, stageDir, signal, services } = input;
  const statusPath = join(stageDir, 'status.json');
  const template = resolvePromptTemplate(node, graph);
  if (!template.ok) {
    const outcome: Outcome = {
      status: 'fail',
      failure_reason: template.reason,
    };
    await writeStatusFileAsync(statusPath, outcome);
    return outcome;
  }
  const values = context.toDict();
  const prompt = expandContextKeys(template.text, values);
  // A stage file: atomic, not fsync'd (the checkpoint is the durable record, decision 0470).
  await writeFileAtomicAsync(join(stageDir, 'prompt.md'), prompt, { durable: false });
  // A status.json left by an earlier attempt or visit must not pass for this call's.
  await removeFileAsync(statusPath);

  const result = await services.backend.run({
    node,
    prompt,
    contextSummary: renderContextSummary({
      fidelity: input.fidelity,
      graph,
      context: values,
      completedNodes: input.completedNodes ?? [],
    }),
    fidelity: input.fidelity,
    threadId: input.threadId,
    model: node.attrs.llm_model,
    provider: node.attrs.llm_provider,
    reasoningEffort: node.attrs.reasoning_effort,
    stageDir,
    ...(input.workingDir ? { workingDir: input.workingDir } : {}),
    interviewer: services.interviewer,
    ...definedFields({ processes: services.processes }),
    ...traceparentOf(services, node.id),
    sandbox: (workingDirs: readonly string[]) =>
      nodeSandbox(sandboxOrDefault(services.sandbox), node.attrs, graph.attrs, workingDirs),
    envPassthrough: [
      ...parseEnvPassthrough(node.attrs.env_passthrough),
      ...parseEnvPassthrough(graph.attrs.env_passthrough),
    ],
    signal,
    emit: services.emit,
    ...definedFields({ parentActor: input.actor }),
  });
  await writeFileAtomicAsync(join(stageDir, 'response.md'), result.response, { durable: false });

  const decided: Outcome = readStatusFile(statusPath) ??
    result.outcome ?? {
      status: 'success',
      notes: node.attrs.auto_status
        ? 'auto-status: handler completed without writing status'
        : `Stage completed: ${node.id}`,
    };
  const outcome: Outcome = {
    ...decided,
    context_updates: {
      ...decided.context_updates,
      last_stage: node.id,
      last_response: result.response.slice(0, LAST_RESPONSE_LENGTH),
    },
  };
  await writeStatusFileAsync(statusPath, outcome, result.usage ? { usage: result.usage } : undefined);
  return outcome;
};

function traceparentOf(services: HandlerServices, nodeId: string): { traceparent?: string } {
  const traceparent = services.traceparent?.(nodeId);
  return traceparent === undefined ? {} : { traceparent };
}
