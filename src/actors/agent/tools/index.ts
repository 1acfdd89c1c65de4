export { applyPatchTool } from './apply-patch-tool.js';
export {
  type AgentTool,
  type AgentToolResult,
  defineTool,
  type ToolContext,
  type ToolSpec,
} from './define-tool.js';
export { editFileTool } from './edit-file-tool.js';
export { globTool } from './glob-tool.js';
export { grepTool } from './grep-tool.js';
export { listDirTool } from './list-dir-tool.js';
export { type Hunk, type PatchOperation, parsePatch } from './parse-patch.js';
export { readFileTool } from './read-file-tool.js';
export { READ_MANY_FILES_LIMIT, readManyFilesTool } from './read-many-files-tool.js';
export { type RunAgentToolResult, runAgentTool } from './run-agent-tool.js';
export { DEFAULT_COMMAND_TIMEOUT_MS, MAX_COMMAND_TIMEOUT_MS, shellTool } from './shell-tool.js';
export { BUILTIN_TOOLS, createDefaultTools, ToolRegistry } from './tool-registry.js';
export { writeFileTool } from './write-file-tool.js';
