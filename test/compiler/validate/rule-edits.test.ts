import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/compiler/compile.js';
import { locateEdit } from '../../../src/compiler/locate-edit.js';

const pipeline = (line: string) =>
  `digraph p {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [prompt="do it"]\n${line}\n  start -> work -> exit\n}\n`;

const findings = (source: string, rule: string) =>
  loadPipeline(source).diagnostics.filter((d) => d.rule === rule);

/** The source with every edit of the diagnostic applied (they never overlap). */
function applyEdits(source: string, rule: string): string {
  const [finding] = findings(source, rule);
  const located = (finding?.edits ?? []).map((edit) => locateEdit(source, edit));
  expect(located.length).toBeGreaterThan(0);
  let fixed = source;
  for (const edit of located.sort((a, b) => (b?.start ?? 0) - (a?.start ?? 0))) {
    if (!edit) throw new Error(`${rule}: an edit did not locate`);
    fixed = fixed.slice(0, edit.start) + edit.newText + fixed.slice(edit.end);
  }
  return fixed;
}

describe('lint rules with a mechanical fix carry it as edits', () => {
  it.each([
    ['type_known', '  t [type="tol", tool_command="true"]', 't [type="tool"'],
    ['type_known', '  work2 [shape=Msqaure]\n  work -> work2', 'work2 [shape=Msquare]'],
    [
      'retry_target_exists',
      '  g [goal_gate=true, retry_target="wrok", prompt="p"]\n  work -> g',
      'retry_target="work"',
    ],
    ['retry_target_exists', '  fallback_retry_target=strat', 'fallback_retry_target=start'],
    ['fidelity_valid', '  f [fidelity="ful", prompt="p"]\n  work -> f', 'fidelity="full"'],
    ['attribute_unknown', '  w [promt="x"]\n  work -> w', 'w [prompt="x"]'],
  ])('%s: %s', (rule, line, expected) => {
    const source = pipeline(line);
    const fixed = applyEdits(source, rule);
    expect(fixed).toContain(expected);
    expect(findings(fixed, rule)).toEqual([]);
  });

  it('offers no edit when nothing is near, or the value was not written on the node', () => {
    const far = findings(pipeline('  t [type="deploy"]\n  work -> t'), 'type_known');
    expect(far[0]?.edits).toBeUndefined();
    const inherited = findings(
      pipeline('  node [fidelity="ful"]\n  f [prompt="p"]\n  work -> f'),
      'fidelity_valid',
    );
    expect(inherited.length).toBeGreaterThan(0);
    expect(inherited.every((d) => d.edits === undefined)).toBe(true);
  });
});
