import { parseScenario } from '../actors/simulated/scenario.js';
import { loadPipeline } from '../compiler/compile.js';
import type { ReadScope } from '../compiler/files/read-scope.js';
import type { PipelineGraph } from '../compiler/ir.js';
import { hasErrors } from '../compiler/validate/validate.js';
import { parseVarsDeclaration, resolvePipelineVars } from '../compiler/vars/pipeline-vars.js';
import { definedFields } from '../shared/defined-fields.js';
import { AttractorError } from '../shared/errors.js';
import { ApiError } from './api-error.js';
import { refuseExternalAgents } from './refuse-external-agents.js';
import type { Submission } from './run-service.js';
import { namedWorkingDir, type WorkingDirPolicy } from './run-working-dir.js';
import { refuseServerSecrets } from './server-secret-names.js';
import { toolsNotAllowed } from './tools-not-allowed.js';

/** What a server accepts of a submission: its flags and folders. */
export interface SubmissionPolicy {
  allowTools: boolean;
  /** Whether this server can run real models (`realRuns`); without, only simulated runs. */
  realRuns: boolean;
  /** Where a named `working_dir` may lie; absent: runs execute elsewhere, which checks its own folders. */
  workingDirs?: WorkingDirPolicy;
  readScope(sourceFile: string): ReadScope;
}

/**
 * The pipeline of `submission` compiled with its goal and values, when this server may run it; else an
 * `ApiError` saying why (400 invalid, 403 a command or folder it does not allow, 422 no model backend).
 */
export function checkSubmission(submission: Submission, policy: SubmissionPolicy): PipelineGraph {
  const { options } = submission;
  const graph = compileSubmission(submission, policy.readScope(submission.sourceFile));
  if (options.scenario !== undefined) parseScenarioOrReject(options.scenario);
  if (options.working_dir !== undefined && policy.workingDirs) {
    try {
      namedWorkingDir(options.working_dir, policy.workingDirs);
    } catch (error) {
      if (!AttractorError.isInstance(error)) throw error;
      throw new ApiError(error.code === 'WORKDIR_NOT_ALLOWED' ? 403 : 400, error.code, error.describe());
    }
  }
  refuseServerSecrets(graph);
  const refused = toolsNotAllowed(graph, {
    allowTools: policy.allowTools,
    dryRun: options.dry_run,
    who: 'the server',
  });
  if (refused) throw new ApiError(403, refused.code, refused.describe());
  const simulated = options.dry_run || options.scenario !== undefined;
  refuseExternalAgents(graph, simulated === true);
  if (!simulated && !policy.realRuns) {
    throw new ApiError(
      422,
      'NO_BACKEND',
      'this server has no LLM backend configured: submit with "dry_run": true or a "scenario".',
    );
  }
  return graph;
}

function compileSubmission(submission: Submission, readScope: ReadScope): PipelineGraph {
  const { goal, vars } = submission.options;
  let loaded: ReturnType<typeof loadPipeline>;
  try {
    loaded = loadPipeline(submission.source, {
      file: submission.sourceFile,
      readScope,
      ...definedFields({ goal, vars }),
    });
    // A missing or unknown parameter is the submitter's to fix, before the run is queued.
    resolvePipelineVars(parseVarsDeclaration(loaded.graph.attrs.vars), vars ?? {});
  } catch (error) {
    if (!AttractorError.isInstance(error)) throw error;
    throw new ApiError(
      400,
      error.code,
      error.describe(),
      error.location ? { location: error.location } : undefined,
    );
  }
  if (hasErrors(loaded.diagnostics)) {
    throw new ApiError(400, 'INVALID_PIPELINE', 'the pipeline has validation errors.', {
      diagnostics: loaded.diagnostics,
    });
  }
  return loaded.graph;
}

/** The run's scenario (`scenario` of its submission) parsed; a bad one is the submitter's 400. */
export function parseScenarioOrReject(text: string) {
  try {
    return parseScenario(text, '<scenario>');
  } catch (error) {
    if (!AttractorError.isInstance(error)) throw error;
    throw new ApiError(400, error.code, error.describe());
  }
}
