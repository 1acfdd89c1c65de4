import * as z from 'zod';
import { ScenarioSchema } from '../actors/simulated/scenario.js';

/** A path inside the case's working folder: relative, never leaving it. */
const WorkingPathSchema = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !path.split(/[\\/]/).includes('..'), {
    message: 'must be a relative path inside the working folder (no leading / and no ..)',
  });

/** What a file in the working folder must hold after the run: exactly this text, a part of it, or (not) be there. */
const FileExpectationSchema = z.union([
  z.string(),
  z.object({ contains: z.string() }).strict(),
  z.object({ exists: z.boolean() }).strict(),
]);
export type FileExpectation = z.infer<typeof FileExpectationSchema>;

/** Upper bounds on what a cassette run's replayed model calls cost (as its usage ledger counted them). */
const CostLimitsSchema = z
  .object({
    max_usd: z.number().nonnegative().optional(),
    max_input_tokens: z.number().int().nonnegative().optional(),
    max_output_tokens: z.number().int().nonnegative().optional(),
  })
  .strict();
export type CostLimits = z.infer<typeof CostLimitsSchema>;

/** What a case asserts about its run; every field is optional and checked only when given. */
export const CaseExpectationsSchema = z
  .object({
    /** The exact sequence of nodes the run entered (its `node.start` events; parallel branches excluded). */
    route: z.array(z.string().min(1)).min(1).optional(),
    /** Nodes the run entered at least once, in any order (parallel branches included). */
    visits: z.array(z.string().min(1)).optional(),
    /** Nodes the run never entered. */
    not_visits: z.array(z.string().min(1)).optional(),
    status: z.enum(['completed', 'failed', 'paused', 'cancelled']).optional(),
    quality: z.enum(['clean', 'degraded', 'failed']).optional(),
    /** Context values at the end of the run, compared as JSON values. */
    context: z.record(z.string(), z.unknown()).optional(),
    /** Files in the working folder at the end of the run. */
    files: z.record(WorkingPathSchema, FileExpectationSchema).optional(),
    cost: CostLimitsSchema.optional(),
  })
  .strict();
export type CaseExpectations = z.infer<typeof CaseExpectationsSchema>;

/**
 * One case: a scenario (`nodes` and `answers`, exactly as a `--scenario` file writes them) plus what the
 * case sets up (goal, parameters, the working folder's files, a cassette to replay) and what it expects.
 */
export const TestCaseSchema = ScenarioSchema.extend({
  name: z.string().min(1),
  goal: z.string().optional(),
  /** Pipeline parameters, as `--set name=value`. */
  set: z.record(z.string(), z.string()).optional(),
  /** The working folder's files before the run (path → text). */
  files: z.record(WorkingPathSchema, z.string()).optional(),
  /** A cassette (`--record`) whose model calls answer the LLM nodes, relative to the test file. */
  cassette: z.string().min(1).optional(),
  /** The router model's choice per node and visit (an `llm_decide` edge's target); default: the first candidate. */
  router: z.record(z.string(), z.array(z.string().min(1)).min(1)).default({}),
  max_steps: z.number().int().positive().optional(),
  expect: CaseExpectationsSchema,
})
  .strict()
  .refine((testCase) => testCase.expect.cost === undefined || testCase.cassette !== undefined, {
    message: 'expect.cost limits what replayed model calls cost: give the case a cassette',
    path: ['expect', 'cost'],
  });
export type TestCase = z.infer<typeof TestCaseSchema>;

/** `<name>.test.json` / `<name>.test.yaml`: the pipeline it tests (relative to this file) and its cases. */
export const PipelineTestFileSchema = z
  .object({
    pipeline: z.string().min(1),
    cases: z.array(TestCaseSchema).min(1),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.cases.forEach((testCase, index) => {
      if (seen.has(testCase.name))
        ctx.addIssue({
          code: 'custom',
          message: `a second case named "${testCase.name}"`,
          path: ['cases', index, 'name'],
        });
      seen.add(testCase.name);
    });
  });
export type PipelineTestFile = z.infer<typeof PipelineTestFileSchema>;
