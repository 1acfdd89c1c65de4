import { describe, expect, it } from 'vitest';
import { parseDot } from '../../src/compiler/parse/index.js';
import { MAX_DRAWN_LABEL_CHARS, renderGraphDot } from '../../src/svg/render-graph-dot.js';
import { renderSvg } from '../../src/svg/render-svg.js';

const huge = 'L'.repeat(3_000_000);
const pipeline = (label: string, goal = 'short') =>
  parseDot(`digraph p {
  graph [goal="${goal}"]
  start [shape=Mdiamond]
  a [label="${label}"]
  exit [shape=Msquare]
  start -> a [label="${label}"]
  a -> exit
}`).graph;

describe('drawing a pipeline with huge labels', () => {
  it.each([
    ['a node and an edge label', pipeline(huge)],
    ['the goal', pipeline('a', huge)],
  ])('clips %s, so a 3 MB label is drawn in well under a second', async (_what, graph) => {
    const dot = renderGraphDot(graph);
    expect(dot.length).toBeLessThan(5 * MAX_DRAWN_LABEL_CHARS + 2_000);
    const started = performance.now();
    const svg = await renderSvg(graph);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(svg).toContain(`${'L'.repeat(MAX_DRAWN_LABEL_CHARS - 1)}…`);
    expect(svg).not.toContain('L'.repeat(MAX_DRAWN_LABEL_CHARS));
  });

  it('draws a label within the limit whole', async () => {
    const label = `${'é'.repeat(MAX_DRAWN_LABEL_CHARS - 1)}x`;
    expect(await renderSvg(pipeline(label))).toContain(label);
  });
});
