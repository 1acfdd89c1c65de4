import { type EnvironmentInfo, renderEnvironmentBlock } from './environment-context.js';
import { type InstructionFile, renderProjectInstructions } from './instruction-files.js';

/** Everything a profile needs to write its system prompt. */
export interface SystemPromptContext {
  environment: EnvironmentInfo;
  instructions: readonly InstructionFile[];
  tools: ReadonlyArray<{ name: string; description: string }>;
  /** SessionConfig.userInstructions: the last layer, so it overrides the others. */
  userInstructions?: string;
}

/** The template variables of `format_system_prompt`. */
export function templateVariables(env: EnvironmentInfo): Record<string, string> {
  return {
    working_dir: env.workingDirectory,
    platform: env.platform,
    date: env.date,
    model_id: env.model,
    git_branch: env.gitBranch ?? '',
    git_status: env.gitStatus ?? '',
  };
}

/** Replaces `{name}` for the known variables only; other braces (code samples) stay as written. */
export function fillTemplate(template: string, variables: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? (variables[name] as string) : whole,
  );
}

/**
 * The layered system prompt: provider base → `<environment>` → tool descriptions →
 * project instructions → user instructions. Pure.
 */
export function composeSystemPrompt(template: string, context: SystemPromptContext): string {
  const layers = [fillTemplate(template, templateVariables(context.environment)).trim()];
  layers.push(renderEnvironmentBlock(context.environment));
  if (context.tools.length > 0) {
    const lines = context.tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`);
    layers.push(`# Tools\n\n${lines.join('\n')}`);
  }
  const project = renderProjectInstructions(context.instructions);
  if (project) layers.push(`# Project instructions\n\n${project}`);
  const user = context.userInstructions?.trim();
  if (user) layers.push(`# Instructions for this task\n\n${user}`);
  return layers.join('\n\n');
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
