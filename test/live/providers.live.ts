import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { liveTargets } from './live-targets.js';
import {
  smokeCommandTimeout,
  smokeImageInput,
  smokeSteering,
  smokeSubagent,
} from './smoke-agent-features.js';
import { smokeAgent, smokeClient, smokePipeline } from './smoke-scenarios.js';

// `npm run test:live`: every smoke test against each provider whose key is set; the others are reported
// skipped. These call real models and cost money (a few cents per provider at the default models).
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'attractor-live-')));
  dirs.push(dir);
  return dir;
}

for (const target of liveTargets(process.env)) {
  describe.runIf(target.configured)(
    `${target.provider} (${target.model}; needs ${target.keyVariable})`,
    () => {
      it('LLM client: an answer, a stream, a tool round, an object, an unknown model', () =>
        smokeClient(target));
      it('coding agent: creates, edits and runs a file; a large read is truncated for the model', () =>
        smokeAgent(target, workspace()));
      it('pipeline: plan, implement (goal gate), review', () => smokePipeline(target, workspace()));
      it('agent: a message steered in while it works is followed', () => smokeSteering(target, workspace()));
      it('agent: a subagent does a delegated task', () => smokeSubagent(target, workspace()));
      it('agent: a shell command is stopped at its timeout', () => smokeCommandTimeout(target, workspace()));
      it('LLM client: an image in the request is seen', () => smokeImageInput(target));
    },
  );
}
