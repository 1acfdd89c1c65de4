// parseDot on a 10,000-node, 20,000-edge pipeline against ts-graphviz's own parse of the same text, and
// linear growth (twice the pipeline, under 3.5x the time). Moved here from the test suite: wall-clock
// bounds belong to benchmarks, not to tests run on a loaded machine.
import { parse } from 'ts-graphviz/ast';
import { parseDot } from '../dist/compiler/parse/parse-dot.js';

function bigPipeline(nodes, edges) {
  const lines = ['digraph big {', '  graph [goal="performance"]', '  node [shape=box, timeout="15m"]'];
  for (let i = 0; i < nodes; i++) lines.push(`  n${i} [label="Node ${i}", prompt="Do step ${i}"]`);
  for (let i = 0; i < edges; i++)
    lines.push(`  n${i % nodes} -> n${(i * 7 + 1) % nodes} [label="e${i}", weight=${i % 5}]`);
  lines.push('}');
  return lines.join('\n');
}

function fastest(runs, task) {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    task();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const warmUp = bigPipeline(500, 1_000);
parseDot(warmUp);
parse(warmUp, { maxASTNodes: 0 });
const source = bigPipeline(10_000, 20_000);
const bare = fastest(2, () => parse(source, { maxASTNodes: 0, maxInputSize: 0 }));
const ours = fastest(2, () => parseDot(source));
const overhead = (ours - bare) / bare;
console.log(
  `parseDot 10,000 nodes: ${Math.round(ours)} ms, ts-graphviz alone ${Math.round(bare)} ms, overhead ${(overhead * 100).toFixed(0)}% (target <= 150%) ${overhead <= 1.5 ? 'OK' : 'MISSED'}`,
);
const small = bigPipeline(1_000, 2_000);
const large = bigPipeline(2_000, 4_000);
parseDot(small);
const growth = fastest(3, () => parseDot(large)) / fastest(3, () => parseDot(small));
console.log(
  `parseDot growth 1,000 → 2,000 nodes: ${growth.toFixed(2)}x (target < 3.5x) ${growth < 3.5 ? 'OK' : 'MISSED'}`,
);
