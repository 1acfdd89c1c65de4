import { describe, expect, it } from 'vitest';
import { compileMachine } from '../../src/machines/compile-machine.js';

const SOURCE = `digraph cached {
  graph [vars="mode=slow"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [prompt="Work in $mode mode"]
  start -> work -> exit
}
`;

const promptOf = (vars: Record<string, string>): string | undefined =>
  compileMachine(SOURCE, { vars }).graph.nodes.find((n) => n.id === 'work')?.attrs.prompt;

describe('compileMachine cache', () => {
  it('compiles a source again for other parameter values (they are expanded into prompts)', () => {
    expect(promptOf({ mode: 'slow' })).toBe('Work in slow mode');
    expect(promptOf({ mode: 'fast' })).toBe('Work in fast mode');
    expect(compileMachine(SOURCE, { vars: { mode: 'fast' } })).toBe(
      compileMachine(SOURCE, { vars: { mode: 'fast' } }),
    );
  });
});
