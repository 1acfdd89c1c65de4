import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));
const examples = readdirSync(examplesDir)
  .filter((f) => f.endsWith('.dot'))
  .sort();

const SHAPES = [
  'Mdiamond',
  'Msquare',
  'box',
  'hexagon',
  'diamond',
  'component',
  'tripleoctagon',
  'parallelogram',
  'house',
];

describe('examples/', () => {
  it('holds the tour and at least 8 other pipelines', () => {
    expect(examples).toContain('tour.dot');
    expect(examples.length).toBeGreaterThanOrEqual(9);
  });

  it.each(examples)('%s validates with no errors and no warnings', async (name) => {
    const result = await runCli(['validate', path.join(examplesDir, name), '--json', '--strict']);
    const report = JSON.parse(result.stdout) as { valid: boolean; diagnostics: unknown[] };
    expect(report.diagnostics).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('together use all nine shapes', async () => {
    const used = new Set<string>();
    for (const name of examples) {
      const result = await runCli(['compile', path.join(examplesDir, name)]);
      const graph = JSON.parse(result.stdout) as { nodes: Array<{ attrs: { shape?: string } }> };
      for (const node of graph.nodes) used.add(node.attrs.shape ?? 'box');
    }
    for (const shape of SHAPES) expect(used).toContain(shape);
  });
});
