import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/actors/registry.js';
import { withDryRunHandlers } from '../../src/actors/simulated/dry-run-handlers.js';
import { createSimulatedRouter } from '../../src/actors/simulated/simulated-router.js';
import { runDot } from '../helpers/run-helpers.js';

const dir = fileURLToPath(new URL('../../examples/', import.meta.url));
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.dot'))
  .sort();

describe('every example runs to completion in a dry run', () => {
  it.each(examples)('%s', async (name) => {
    const file = path.join(dir, name);
    const run = await runDot(readFileSync(file, 'utf8'), {
      file,
      registry: withDryRunHandlers(createDefaultRegistry()),
      llmRank: createSimulatedRouter(),
    });
    expect(run.result.failure).toBeUndefined();
    expect(run.result.status).toBe('completed');
    expect(run.kinds.at(-1)).toBe('pipeline.finalize');
  });
});
