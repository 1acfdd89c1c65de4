import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { Interviewer, QuestionOption } from '../interviewers/interviewer.js';

/** `agent_permissions`: answer the agent's permission requests with allow, deny, or ask someone. */
export type PermissionPolicy = 'allow' | 'deny' | 'ask';

export function parsePermissionPolicy(value: string | undefined): PermissionPolicy | undefined {
  const text = (value ?? 'ask').trim().toLowerCase();
  return text === 'allow' || text === 'deny' || text === 'ask' ? text : undefined;
}

const ALLOW_KINDS = ['allow_once', 'allow_always'] as const;
const REJECT_KINDS = ['reject_once', 'reject_always'] as const;

/** The once-only option of a side when the agent offers it (a pipeline decides per visit), else any. */
function pick(options: readonly PermissionOption[], kinds: readonly string[]): PermissionOption | undefined {
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}

const selected = (option: PermissionOption | undefined): RequestPermissionResponse =>
  option
    ? { outcome: { outcome: 'selected', optionId: option.optionId } }
    : { outcome: { outcome: 'cancelled' } };

function describeToolCall(request: RequestPermissionRequest): string {
  const call = request.toolCall;
  const title = call.title ?? call.name ?? call.kind ?? 'a tool';
  const input = call.rawInput === undefined ? '' : ` ${JSON.stringify(call.rawInput).slice(0, 300)}`;
  return `The agent asks permission to run ${title}${input}`;
}

export interface AnswerPermissionOptions {
  policy: PermissionPolicy;
  /** The run's interviewer (console, TUI, HTTP server, scenario answers, auto-approve). */
  interviewer?: Interviewer;
  /** Question stage: the node id, so a scenario can script the answers by node. */
  stage: string;
  signal: AbortSignal;
}

/**
 * Answers `session/request_permission`: `allow` picks the agent's allow-once option, `deny` its
 * reject-once option, `ask` puts the agent's own options to the run's interviewer as a multiple choice
 * (keys 1, 2, …; an auto-approving interviewer takes the first, so allow options are listed first). No
 * matching option, no interviewer or an aborted run answers `cancelled`, which agents treat as "no".
 */
export async function answerPermission(
  request: RequestPermissionRequest,
  options: AnswerPermissionOptions,
): Promise<RequestPermissionResponse> {
  if (options.policy === 'allow') return selected(pick(request.options, ALLOW_KINDS));
  if (options.policy === 'deny') return selected(pick(request.options, REJECT_KINDS));
  if (!options.interviewer || options.signal.aborted) return selected(undefined);
  const ordered = [
    ...request.options.filter((o) => o.kind.startsWith('allow')),
    ...request.options.filter((o) => !o.kind.startsWith('allow')),
  ];
  const choices: QuestionOption[] = ordered.map((o, i) => ({ key: String(i + 1), label: o.name }));
  const answer = await options.interviewer.ask(
    { text: describeToolCall(request), type: 'multiple_choice', options: choices, stage: options.stage },
    options.signal,
  );
  const index = answer.selected ? choices.findIndex((c) => c.key === answer.selected?.key) : -1;
  if (index >= 0) return selected(ordered[index]);
  if (answer.value === 'yes') return selected(pick(request.options, ALLOW_KINDS));
  if (answer.value === 'no') return selected(pick(request.options, REJECT_KINDS));
  return selected(undefined);
}
