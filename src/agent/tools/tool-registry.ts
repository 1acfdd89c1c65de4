import { AttractorError } from '../../shared/errors.js';
import { applyPatchTool } from './apply-patch-tool.js';
import type { AgentTool } from './define-tool.js';
import { editFileTool } from './edit-file-tool.js';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';
import { listDirTool } from './list-dir-tool.js';
import { readFileTool } from './read-file-tool.js';
import { readManyFilesTool } from './read-many-files-tool.js';
import { shellTool } from './shell-tool.js';
import { writeFileTool } from './write-file-tool.js';

/** The built-in tools by name (the subagent tools live with the session, which they need). */
export const BUILTIN_TOOLS: Readonly<Record<string, AgentTool>> = {
  read_file: readFileTool as AgentTool,
  read_many_files: readManyFilesTool as AgentTool,
  write_file: writeFileTool as AgentTool,
  edit_file: editFileTool as AgentTool,
  shell: shellTool as AgentTool,
  grep: grepTool as AgentTool,
  glob: globTool as AgentTool,
  list_dir: listDirTool as AgentTool,
  apply_patch: applyPatchTool as AgentTool,
};

export type BuiltinToolName = keyof typeof BUILTIN_TOOLS;

/**
 * Tools by name, in registration order; registering a name again replaces the earlier tool (a later
 * registration wins), so a profile or user can override a built-in.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AgentTool>();

  constructor(tools: Iterable<AgentTool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: AgentTool): this {
    this.#tools.set(tool.name, tool);
    return this;
  }

  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  get(name: string): AgentTool | undefined {
    return this.#tools.get(name);
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  tools(): AgentTool[] {
    return [...this.#tools.values()];
  }

  /** What the model is told: name, description, JSON schema parameters. */
  definitions(): { name: string; description: string; parameters: Record<string, unknown> }[] {
    return this.tools().map((t) => ({ name: t.name, description: t.description, parameters: t.jsonSchema }));
  }
}

/**
 * A registry of built-in tools: all of them, or the named subset in that order (a profile's tool set:
 * OpenAI gets `apply_patch`, the others `edit_file`, Gemini also `list_dir`). An unknown name throws, so a
 * typo in a profile fails at once rather than leaving the model without a tool.
 *
 * @example
 * createDefaultTools(['read_file', 'apply_patch', 'write_file', 'shell', 'grep', 'glob']).names()
 */
export function createDefaultTools(names?: readonly string[]): ToolRegistry {
  const wanted = names ?? Object.keys(BUILTIN_TOOLS);
  const unknown = wanted.filter((name) => !(name in BUILTIN_TOOLS));
  if (unknown.length > 0) {
    throw new AttractorError(
      'agent.tools_missing',

      `Unknown built-in agent tool(s): ${unknown.join(', ')}. Known: ${Object.keys(BUILTIN_TOOLS).join(', ')}.`,
    );
  }
  return new ToolRegistry(wanted.map((name) => BUILTIN_TOOLS[name]!));
}
