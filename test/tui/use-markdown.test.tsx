import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, expect, test } from 'vitest';
import { plainLines, useMarkdown } from '../../src/tui/use-markdown.js';

/** The first line's segments, as text the test can read. */
function FirstLine({ wanted }: { wanted: boolean }) {
  const render = useMarkdown(wanted) ?? plainLines;
  const [segments = []] = render(['- **bold**']);
  return <Text>{segments.map((s) => `${s.style}:${s.text}`).join('|')}</Text>;
}

/** Polls, rather than sleeping a guessed time; the deadline only guards against a hang. */
async function frameWith(frame: () => string | undefined, wanted: string): Promise<string | undefined> {
  const deadline = Date.now() + 20_000;
  while (!frame()?.includes(wanted) && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return frame();
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

test('the markdown renderer loads with the first text: lines are shown as written until it is there', async () => {
  const app = render(<FirstLine wanted />);
  unmount = app.unmount;
  expect(app.lastFrame()).toBe('plain:- **bold**');
  expect(await frameWith(app.lastFrame, 'bullet')).toBe('bullet:• |bold:bold');

  // Once loaded, a new user has it from its first frame.
  const next = render(<FirstLine wanted={false} />);
  expect(next.lastFrame()).toBe('bullet:• |bold:bold');
  next.unmount();
});
