import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, test } from 'vitest';
import { createRunStore, type RunStore } from '../../src/tui/run-store.js';
import { useRunState } from '../../src/tui/use-run-state.js';
import { ev, graphOf } from './tui-fixtures.js';

function Started({ store }: { store: RunStore }) {
  const state = useRunState(store, 1); // one re-read a second: a change would wait up to a second
  return <Text>{Object.values(state.nodes).filter((n) => n.status !== 'pending').length} started</Text>;
}

// A window far shorter than the 1 s re-read: "not yet" is a negative window, and "at once" after
// settle() must beat the throttle, so waiting longer for it would let a broken settle() pass.
const tick = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('useRunState', () => {
  test('throttles re-reads, but settle() shows the final state at once (the TUI is closing)', async () => {
    const store = createRunStore(graphOf());
    const app = render(<Started store={store} />);
    await tick();
    expect(app.lastFrame()).toBe('0 started');
    store.push(ev('node.start', 'start', {}));
    await tick();
    store.push(ev('node.start', 'plan', {}));
    await tick();
    // Throttled: the first change shows on the next tick of a 1/s re-read, not yet.
    expect(app.lastFrame()).not.toBe('2 started');
    store.settle();
    await tick();
    expect(app.lastFrame()).toBe('2 started');
    app.unmount();
  });
});
