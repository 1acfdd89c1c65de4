export type {
  DirEntry,
  ExecOptions,
  ExecResult,
  ExecutionEnvironment,
  FileChange,
  GrepMatch,
  GrepOptions,
  GrepResult,
} from './execution-environment.js';
export { FileNotFoundError } from './file-not-found-error.js';
export {
  LocalExecutionEnvironment,
  type LocalExecutionEnvironmentOptions,
} from './local-execution-environment.js';
export { PathOutsideWorkdirError } from './path-outside-workdir-error.js';
