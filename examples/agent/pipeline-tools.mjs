// A pipeline whose agent nodes get a tool of ours and work in an execution environment of ours: every
// command the agent runs is recorded in an audit log before it runs. The model is scripted (no key, no
// network); with `LLMClient.fromEnv()` instead, the same backend runs real models.
//
//   node examples/agent/pipeline-tools.mjs   (after `npm run build`)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoApproveInterviewer, runPipeline } from 'attractor-pipelines';
import { createAgentBackend, defineTool, LocalExecutionEnvironment } from 'attractor-pipelines/agent';
import { LLMClient } from 'attractor-pipelines/llm';
import { ScriptedAdapter } from 'attractor-pipelines/testing';
import { z } from 'zod';

const PIPELINE = `digraph triage {
  graph [goal="File a ticket for the failing check"]
  start  [shape=Mdiamond]
  triage [prompt="Run the check, then open a ticket describing what failed: $goal", llm_model="claude-sonnet-4-6"]
  exit   [shape=Msquare]
  start -> triage -> exit
}`;

/**
 * An ExecutionEnvironment is an interface: this one runs everything in a local directory, but writes each
 * command to an audit log first. A container or a remote machine would implement the same methods.
 */
class AuditedEnvironment {
  constructor(inner, audit, node) {
    this.inner = inner;
    this.audit = audit;
    this.node = node;
    this.workingDirectory = inner.workingDirectory;
    this.platform = inner.platform;
    this.osVersion = inner.osVersion;
  }
  execCommand(command, options) {
    this.audit.push(`${this.node}: ${command}`);
    return this.inner.execCommand(command, options);
  }
  initialize() {
    return this.inner.initialize();
  }
  cleanup() {
    return this.inner.cleanup();
  }
  resolvePath(path) {
    return this.inner.resolvePath(path);
  }
  readFile(path) {
    return this.inner.readFile(path);
  }
  writeFile(path, content) {
    return this.inner.writeFile(path, content);
  }
  applyChanges(changes) {
    return this.inner.applyChanges(changes);
  }
  fileExists(path) {
    return this.inner.fileExists(path);
  }
  listDirectory(path, depth) {
    return this.inner.listDirectory(path, depth);
  }
  grep(pattern, path, options) {
    return this.inner.grep(pattern, path, options);
  }
  glob(pattern, path) {
    return this.inner.glob(pattern, path);
  }
}

/** Runs the pipeline in `workingDir`; returns the run's result, the tickets opened and the audit log. */
export async function runPipelineToolsExample(workingDir) {
  const tickets = [];
  const audit = [];
  const openTicket = defineTool({
    name: 'open_ticket',
    description: 'Open a ticket in the team tracker. Returns its id.',
    parameters: z.object({ title: z.string().min(5), body: z.string() }),
    async execute({ title }) {
      tickets.push(title);
      return { output: `opened TICKET-${tickets.length}`, isError: false };
    },
  });
  const model = new ScriptedAdapter({
    name: 'anthropic',
    turns: [
      { toolCalls: [{ name: 'shell', arguments: { command: 'echo "lint: 2 errors"' } }] },
      { toolCalls: [{ name: 'open_ticket', arguments: { title: 'Lint fails', body: 'lint: 2 errors' } }] },
      'Opened TICKET-1 for the failing lint check.',
    ],
  });
  const backend = createAgentBackend({
    client: new LLMClient({ adapters: [model] }),
    tools: [openTicket],
    environment: ({ node, workingDir: dir }) =>
      new AuditedEnvironment(new LocalExecutionEnvironment({ workingDir: dir }), audit, node.id),
  });
  const result = await runPipeline({
    source: PIPELINE,
    backend,
    accounting: backend.ledger, // model usage and cost in the checkpoint and pipeline.finalize
    interviewer: new AutoApproveInterviewer(),
    workingDir,
    runsRoot: join(workingDir, '.runs'),
  });
  return { result, tickets, audit };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = mkdtempSync(join(tmpdir(), 'attractor-agent-pipeline-'));
  try {
    const { result, tickets, audit } = await runPipelineToolsExample(dir);
    console.log(`${result.status} (${result.quality})`);
    console.log(`tickets: ${tickets.join(', ')}`);
    console.log(`audit:   ${audit.join('; ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
