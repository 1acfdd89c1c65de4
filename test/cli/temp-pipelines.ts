import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A temp directory of pipeline files for one test file; `cleanup()` removes it. */
export function tempPipelines(): {
  dir: string;
  write: (name: string, content: string | Buffer) => string;
  cleanup: () => void;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attractor-cli-'));
  return {
    dir,
    write: (name, content) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      return file;
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export const VALID_PIPELINE = `digraph ok {
  graph [goal="Say hello"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Say hello to $goal"]
  start -> work -> exit
}
`;

/** Valid except for one warning: a goal gate with nowhere to retry. */
export const WARNING_PIPELINE = `digraph warn {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Do the work", goal_gate=true]
  start -> work -> exit
}
`;

/** Two errors: no exit node, and an orphan node (line 4). */
export const ERROR_PIPELINE = `digraph broken {
  start [shape=Mdiamond]
  work [prompt="Do the work"]
  orphan [prompt="Nobody comes here"]
  start -> work
}
`;
