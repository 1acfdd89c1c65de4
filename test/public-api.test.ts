import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const INDEX = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** The names `src/index.ts` exports, split into values and type-only names (from its syntax). */
function declaredExports(): { values: string[]; types: string[] } {
  const file = ts.createSourceFile(INDEX, readFileSync(INDEX, 'utf8'), ts.ScriptTarget.ES2022);
  const values: string[] = [];
  const types: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) throw new Error('src/index.ts must export names explicitly');
    for (const spec of clause.elements) {
      (statement.isTypeOnly || spec.isTypeOnly ? types : values).push(spec.name.text);
    }
  }
  return { values: values.sort(), types: types.sort() };
}

// The root API is curated: adding or removing a name is a decision, made by editing these lists.
const VALUES = [
  'ArtifactStore',
  'AttractorError',
  'AutoApproveInterviewer',
  'BUILTIN_TOOLS',
  'CallbackInterviewer',
  'ConsoleInterviewer',
  'DotSyntaxError',
  'FileNotFoundError',
  'HandlerRegistry',
  'LocalExecutionEnvironment',
  'OutcomeSchema',
  'PathOutsideWorkdirError',
  'PipelineContext',
  'PipelineValidationError',
  'QueueInterviewer',
  'RecordingInterviewer',
  'SHAPE_HANDLERS',
  'Scenario',
  'ToolRegistry',
  'askMultiple',
  'checkAnswer',
  'checkGoalGates',
  'compile',
  'compileMachine',
  'createDefaultRegistry',
  'createDefaultTools',
  'createPipelineMachine',
  'createSimulatedBackend',
  'createTimingHook',
  'confirm',
  'defineTool',
  'evaluateCondition',
  'eventDataSchemas',
  'incomingEdges',
  'isEvent',
  'isSuccessStatus',
  'latestCheckpoint',
  'listCheckpoints',
  'loadPipeline',
  'loadScenario',
  'nextStep',
  'onEventOf',
  'outgoingEdges',
  'parseAcceleratorKey',
  'parseScenario',
  'pipelineEventLineSchema',
  'pipelineInput',
  'providePipeline',
  'readCheckpoint',
  'registerLintRule',
  'registerTransform',
  'restorePipeline',
  'resumePipeline',
  'routeFailure',
  'runAgentTool',
  'runPipeline',
  'runToolHooks',
  'saveCheckpoint',
  'selectEdge',
  'startPipeline',
  'truncateOutput',
  'unregisterLintRule',
  'validate',
];

const TYPES = [
  'AgentTool',
  'ArtifactInfo',
  'AgentToolResult',
  'Answer',
  'AnswerValue',
  'CheckedAnswer',
  'Checkpoint',
  'CheckpointFile',
  'CodergenBackend',
  'CodergenRequest',
  'CodergenResult',
  'CompileMachineOptions',
  'CompiledMachine',
  'CompiledPipeline',
  'ContextLogEntry',
  'Diagnostic',
  'DirEntry',
  'EdgeAttrs',
  'EmitEvent',
  'EventData',
  'EventKind',
  'ExecOptions',
  'ExecResult',
  'ExecutionEnvironment',
  'FileChange',
  'GraphAttrs',
  'GrepMatch',
  'GrepOptions',
  'GrepResult',
  'HandlerHook',
  'HandlerInput',
  'HandlerServices',
  'Interviewer',
  'LintRule',
  'LoadOptions',
  'LoadedPipeline',
  'LocalExecutionEnvironmentOptions',
  'MachineConfig',
  'MachineEmitted',
  'NodeAttrs',
  'NodeHandler',
  'NodeTiming',
  'Outcome',
  'PipelineEdge',
  'PipelineEvent',
  'PipelineEventOf',
  'PipelineGraph',
  'PipelineMachine',
  'PipelineMachineContext',
  'PipelineMachineEvent',
  'PipelineMachineInput',
  'PipelineNode',
  'PipelineRun',
  'PipelineServices',
  'Question',
  'QuestionOption',
  'QuestionType',
  'RestoreOptions',
  'ResumeOptions',
  'RoutingStep',
  'RunAgentToolResult',
  'RunOptions',
  'RunQuality',
  'RunResult',
  'Severity',
  'SourceSpan',
  'StageStatus',
  'StartOptions',
  'TimingHookOptions',
  'ToolCallMeta',
  'ToolContext',
  'ToolHooks',
  'TransformContext',
  'Transform',
  'TruncationLimits',
];

describe('the root export surface', () => {
  it('declares exactly the curated names', () => {
    const { values, types } = declaredExports();
    expect(values).toEqual([...VALUES].sort());
    expect(types).toEqual([...TYPES].sort());
  });

  it('exports every declared value at run time, and nothing else', async () => {
    const api = (await import('../src/index.js')) as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...VALUES].sort());
  });

  it('includes the API names of the Python original as working TypeScript equivalents', async () => {
    const api = await import('../src/index.js');
    expect(api.parseAcceleratorKey('[Y] Yes')).toEqual({ key: 'Y', label: 'Yes' });
    expect(api.SHAPE_HANDLERS['Mdiamond']).toBe('start');
    expect(api.isSuccessStatus('partial_success')).toBe(true);
    expect(api.isSuccessStatus('fail')).toBe(false);
    const graph = api.compile(
      'digraph g { start [shape=Mdiamond]; a; b; exit [shape=Msquare]; start -> a -> exit; b -> a; start -> b }',
    ).graph;
    expect(api.outgoingEdges(graph, 'start').map((e) => e.target)).toEqual(['a', 'b']);
    expect(api.incomingEdges(graph, 'a').map((e) => e.source)).toEqual(['start', 'b']);
  });

  it('exports the artifact store handlers receive, usable on its own', async () => {
    const { ArtifactStore } = await import('../src/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'attractor-artifacts-'));
    try {
      const big = 'x'.repeat(200 * 1024);
      const info = new ArtifactStore(dir).store('report', big);
      expect(info.is_file_backed).toBe(true);
      // A store reopened on the same run directory reads it back, as a resumed run does.
      expect(new ArtifactStore(dir).retrieve(info.id)).toBe(big);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
