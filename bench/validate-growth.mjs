// `validate()` in process on graphs of 5,000 and 10,000 nodes: a pipeline-shaped chain (fail back edges,
// side branches) and the cycles rule's worst case (an unconditional self loop on every node). Linear
// growth doubles the time; a quadratic rule would quadruple it. Moved here from the test suite, where
// the same graphs are still validated for their findings: wall-clock bounds belong to benchmarks.
import { validate } from '../dist/compiler.js';
import { loadPipeline } from '../dist/index.js';

function chain(n, selfLoops) {
  const lines = ['digraph big {', '  start [shape=Mdiamond]', '  done [shape=Msquare]', '  start -> n0'];
  for (let i = 0; i < n; i++) {
    lines.push(`  n${i} [prompt="Step ${i}.", max_visits=5]`);
    lines.push(`  n${i} -> ${i + 1 < n ? `n${i + 1}` : 'done'}`);
    if (selfLoops) lines.push(`  n${i} -> n${i}`);
    else if (i % 10 === 9) lines.push(`  n${i} -> n${i - 9} [condition="outcome=fail"]`);
    if (!selfLoops && i % 7 === 0 && i + 3 < n)
      lines.push(`  n${i} -> n${i + 3} [condition="outcome=partial_success"]`);
  }
  lines.push('}');
  return loadPipeline(lines.join('\n')).graph;
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

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
for (const [name, selfLoops] of [
  ['pipeline chain', false],
  ['self loop on every node', true],
]) {
  const small = chain(5_000, selfLoops);
  const large = chain(10_000, selfLoops);
  validate(small); // warm up the JIT: the ratio should measure the algorithm
  const a = fastest(RUNS, () => validate(small));
  const b = fastest(RUNS, () => validate(large));
  const growth = b / a;
  console.log(
    `validate, ${name}: 5,000 nodes ${a.toFixed(0)} ms, 10,000 nodes ${b.toFixed(0)} ms, growth ${growth.toFixed(2)}x (target < 3x) ${growth < 3 ? 'OK' : 'MISSED'}`,
  );
}
