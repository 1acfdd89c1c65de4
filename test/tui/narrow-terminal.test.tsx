import { afterEach, describe, expect, test, vi } from 'vitest';
import { App } from '../../src/tui/App.js';
import { createGateBroker } from '../../src/tui/gate-broker.js';
import { createRunStore } from '../../src/tui/run-store.js';
import { lines, renderAt } from './render-at.js';
import { graphOf, runToGate } from './tui-fixtures.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe.each([40, 60])('at %i columns, a narrow terminal', (width) => {
  test('no line is wider than the terminal, and the pipeline pane keeps its border', async () => {
    const store = createRunStore(graphOf());
    for (const event of runToGate()) store.push(event);
    const app = renderAt(
      <App
        store={store}
        gates={createGateBroker(() => 1_000)}
        controls={{ pause: vi.fn(), cancel: vi.fn() }}
        size={{ columns: width, rows: 60 }}
        clock={() => 13_500}
      />,
      width,
    );
    unmount = app.unmount;
    const frame = lines(app.frame());
    const tooWide = frame.filter((l) => [...l].length > width);
    expect(tooWide).toEqual([]);
    // Every row between the pane's top and bottom corners is closed by its right border, at the same column.
    const top = frame.findIndex((l) => l.startsWith('╭'));
    const bottom = frame.findIndex((l, i) => i > top && l.startsWith('╰'));
    expect(top).toBeGreaterThanOrEqual(0);
    const edge = [...(frame[top] ?? '')].length;
    for (const row of frame.slice(top + 1, bottom)) {
      expect(row.startsWith('│'), row).toBe(true);
      expect([...row.trimEnd()].length, row).toBe(edge);
      expect(row.trimEnd().endsWith('│'), row).toBe(true);
    }
  });
});
