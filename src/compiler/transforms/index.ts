export { agentDefaultsTransform } from './agent-defaults.js';
export {
  type ApplyTransformsOptions,
  applyTransforms,
  BUILTIN_TRANSFORMS,
} from './apply-transforms.js';
export { expandGoal, goalExpansionTransform } from './goal-expansion.js';
export { promptIncludePath, promptIncludeTransform } from './prompt-include.js';
export { stylesheetTransform } from './stylesheet-transform.js';
export type { Transform, TransformContext } from './transform.js';
