// The coding agent as a library: one session, with a tool of our own, driven by a scripted model so it runs
// with no key and no network. It writes a file with the built-in write_file tool, counts its lines with the
// custom tool, takes a steering message mid-task, then a queued follow-up. Replace the scripted client with
// `LLMClient.fromEnv()` to run the same code against a real model.
//
//   node examples/agent/session.mjs          (after `npm run build`)

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession, defineTool, getProfile, LocalExecutionEnvironment } from 'attractor-pipelines/agent';
import { LLMClient } from 'attractor-pipelines/llm';
import { ScriptedAdapter } from 'attractor-pipelines/testing';
import { z } from 'zod';

/** A tool of our own: zod parameters (the model sees their JSON schema), output as text for the model. */
export const countLines = defineTool({
  name: 'count_lines',
  description: 'Count the lines of a text file in the working directory.',
  parameters: z.object({ path: z.string().describe('File to count, relative to the working directory.') }),
  async execute({ path }, { env }) {
    const text = await env.readFile(path);
    return { output: `${path}: ${text.split('\n').filter(Boolean).length} line(s)`, isError: false };
  },
});

/** What the scripted model answers, turn by turn (a real model would decide this itself). */
const TURNS = [
  {
    toolCalls: [
      {
        name: 'write_file',
        arguments: { file_path: 'greet.mjs', content: "export const greet = (name) => 'Hello, ' + name;\n" },
      },
    ],
  },
  { toolCalls: [{ name: 'count_lines', arguments: { path: 'greet.mjs' } }] },
  'Wrote greet.mjs: one line, as asked.',
  // The follow-up, processed after the first input finished.
  { toolCalls: [{ name: 'write_file', arguments: { file_path: 'README.md', content: '# greet\n' } }] },
  'Added README.md.',
];

/**
 * Runs the session in `workingDir`; returns what happened: the event kinds in order, the files written, and
 * the requests the model was sent (to see the steering message arrive).
 */
export async function runSessionExample(workingDir, onEvent = () => {}) {
  const adapter = new ScriptedAdapter({ name: 'anthropic', turns: TURNS });
  const session = createSession({
    client: new LLMClient({ adapters: [adapter] }),
    profile: getProfile('anthropic', { model: 'claude-sonnet-4-6' }),
    env: new LocalExecutionEnvironment({ workingDir }),
    tools: [countLines],
    config: { maxTurns: 20 },
  });
  const kinds = [];
  let steered = false;
  // subscribe() sees every event of every input; submit() returns the events of one input.
  const unsubscribe = session.subscribe((event) => {
    kinds.push(event.kind);
    onEvent(event);
    // Steering: a message injected after the current tool round, while the agent works.
    if (event.kind === 'tool_call_end' && !steered) {
      steered = true;
      session.steer('Keep greet.mjs to a single line.');
    }
  });
  session.followUp('Also add a README.md with a title.');
  for await (const _event of session.submit('Create greet.mjs exporting greet(name).')) {
    // Drained to the end of the input and its follow-up (the subscriber above saw every event).
  }
  await session.shutdown();
  unsubscribe();
  return {
    kinds,
    greet: readFileSync(join(workingDir, 'greet.mjs'), 'utf8'),
    readme: readFileSync(join(workingDir, 'README.md'), 'utf8'),
    requests: adapter.calls.map((call) => call.request),
    usage: session.usage,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = mkdtempSync(join(tmpdir(), 'attractor-agent-example-'));
  try {
    const result = await runSessionExample(dir, (event) => {
      if (event.kind === 'tool_call_start') console.log(`tool  ${event.data.tool_name}`);
      if (event.kind === 'steering_injected') console.log(`steer ${event.data.text}`);
      if (event.kind === 'assistant_text_end') console.log(`model ${event.data.text}`);
    });
    console.log(`greet.mjs: ${result.greet.trim()}`);
    console.log(`${result.requests.length} model calls, ${result.usage.inputTokens} input tokens`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
