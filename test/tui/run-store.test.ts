import { describe, expect, it } from 'vitest';
import { parseDot } from '../../src/compiler/parse/index.js';
import { createRunStore } from '../../src/tui/run-store.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('the TUI run store', () => {
  it("keeps a pipeline's and its events' text with control characters escaped", () => {
    const { graph } = parseDot(`digraph "evil\u001b]0;x\u0007" {
      graph [goal="clear\u001b[2J"]
      start [shape=Mdiamond]; exit [shape=Msquare]; work [label="w\u009b31m", prompt="p"]
      start -> work -> exit
    }`);
    const store = createRunStore(graph);
    store.push({
      kind: 'node.complete',
      node_id: 'work',
      data: { status: 'fail', failure_reason: 'broke\u001b[2J', duration_ms: 1 },
      timestamp: new Date().toISOString(),
    });
    const state = JSON.stringify(store.getState());
    expect(state).not.toMatch(CONTROL);
    expect(store.getState().name).toBe('evil\\x1b]0;x\\x07');
    expect(store.getState().goal).toBe('clear\\x1b[2J');
    expect(state).toContain('broke\\\\x1b[2J');
  });
});
