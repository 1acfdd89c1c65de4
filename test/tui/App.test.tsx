import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Answer, Question } from '../../src/actors/interviewers/interviewer.js';
import { App } from '../../src/tui/App.js';
import { GatePrompt } from '../../src/tui/GatePrompt.js';
import { createGateBroker } from '../../src/tui/gate-broker.js';
import { createRunStore } from '../../src/tui/run-store.js';
import { ThemeContext, themeFor } from '../../src/tui/theme.js';
import { frameShows, frameWhere, lines, renderAt, settle } from './render-at.js';
import { ev, graphOf, rootSnapshot, runToGate } from './tui-fixtures.js';

const question: Question = {
  text: 'Ship it?',
  type: 'multiple_choice',
  stage: 'review',
  options: [
    { key: 'A', label: '[A] Approve', target: 'done' },
    { key: 'R', label: '[R] Revise', target: 'plan' },
  ],
  timeoutMs: 30_000,
  defaultChoice: 'A',
};

const ENTER = '\r';
const DOWN = '\u001b[B';
const CTRL_C = '\u0003';

function mount(width: number, options: { withRun?: boolean; rows?: number } = {}) {
  const store = createRunStore(graphOf());
  for (const event of runToGate()) store.push(event);
  const broker = createGateBroker(() => 1_000);
  const controls = { pause: vi.fn(), cancel: vi.fn() };
  const app = renderAt(
    <App
      store={store}
      gates={broker}
      {...(options.withRun === false ? { onQuit: vi.fn() } : { controls })}
      size={{ columns: width, rows: options.rows ?? 60 }}
      clock={() => 13_500}
    />,
    width,
  );
  return { app, store, broker, controls };
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const TAB = '\t';
const ESC = '\u001b';

describe('the evidence beside a gate', () => {
  test('shows what the node before it did; Tab scrolls it, keys then answer nothing, Esc gives them back', async () => {
    // 30 rows: the evidence gets fewer than the implement node's 6 lines.
    const { app, broker } = mount(100, { rows: 30 });
    unmount = app.unmount;
    let answered: Answer | undefined;
    void broker.ask(question, new AbortController().signal).then((a) => {
      answered = a;
    });
    const first = await frameShows(app, '⏱ 18s left');
    const shown = Number(/evidence: implement · 1–(\d) of 6 · Tab: scroll this/.exec(first)?.[1]);
    expect(shown).toBeLessThan(6);
    expect(first).toContain('Adding the route');
    expect(first).not.toContain('edit_file');
    expect(first).toContain('Tab: the evidence');
    // The live frame (from its header down) fits the terminal's 30 rows: nothing of it scrolls away.
    const live = lines(first);
    expect(live.length - live.findIndex((l) => l.startsWith('◆ release'))).toBeLessThanOrEqual(30);
    expect(first).toContain('? Ship it?');

    app.stdin.write(TAB);
    await frameShows(app, 'Esc: the options');
    // While the evidence has the keys, ↓ scrolls it and an option's key answers nothing.
    for (let i = 0; i < 6; i++) app.stdin.write(DOWN);
    const scrolled = await frameShows(app, `${7 - shown}–6 of 6`);
    expect(scrolled).toContain('⚙ edit_file');
    expect(scrolled).not.toContain('Adding the route');
    app.stdin.write('r');
    await settle();
    expect(answered).toBeUndefined();

    app.stdin.write(ESC);
    await frameShows(app, 'Tab: scroll this');
    app.stdin.write('r');
    await frameWhere(app, () => answered !== undefined);
    expect(answered).toEqual({ selected: question.options[1] });
  });
});

describe.each([80, 120])('at %i columns', (width) => {
  test('gate prompt: question, options with keys, the highlighted option, countdown', async () => {
    const app = renderAt(
      <GatePrompt
        question={question}
        input={{ cursor: 1, typed: '', typing: false }}
        remainingMs={12_300}
        width={width}
      />,
      width,
    );
    const frame = app.frame();
    expect(frame).toContain('? Ship it?');
    expect(frame).toMatch(/ {3}\[A\] Approve → done/);
    expect(frame).toMatch(/❯ \[R\] Revise → plan/);
    expect(frame).toContain('⏱ 13s left, then the default [A]');
    expect(frame).toContain('↑/↓ + Enter, or press a key · / to type an option');
    expect(lines(frame).every((l) => l.length <= width)).toBe(true);
  });

  test('gate prompt: a free-form text field', async () => {
    const app = renderAt(
      <GatePrompt
        question={{ ...question, type: 'freeform', options: [] }}
        input={{ cursor: 0, typed: 'needs tests', typing: true }}
        width={width}
      />,
      width,
    );
    expect(app.frame()).toContain('> needs tests');
    expect(app.frame()).toContain('type an answer, Enter to send');
  });

  test('the accelerator key answers the gate in place while the pipeline stays visible', async () => {
    const { app, broker } = mount(width);
    unmount = app.unmount;
    const answer = broker.ask(question, new AbortController().signal);
    const frame = await frameShows(app, '⏱ 18s left');
    expect(frame).toContain('◆ release');
    for (const name of [
      'start',
      'Plan the change',
      'implement',
      'test',
      'fan',
      'lint',
      'types',
      'join',
      'Review',
      'done',
    ]) {
      expect(frame).toMatch(new RegExp(`[✓✗◐○⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] ${name} `));
    }
    expect(frame).toContain('? Ship it?');
    expect(frame).toContain('⏱ 18s left, then the default [A]');
    app.stdin.write('r');
    await expect(answer).resolves.toEqual({ selected: question.options[1] } satisfies Answer);
  });

  test('typed text naming no option keeps the gate open and says why; a key then answers it', async () => {
    const { app, broker } = mount(width);
    unmount = app.unmount;
    let answered: Answer | undefined;
    void broker.ask(question, new AbortController().signal).then((a) => {
      answered = a;
    });
    await frameShows(app, '? Ship it?');
    app.stdin.write('/');
    await frameShows(app, '> ');
    for (const c of 'looks fine') app.stdin.write(c);
    await frameShows(app, '> looks fine');
    app.stdin.write(ENTER);
    const frame = await frameShows(app, '✗ "looks fine" is none of the options');
    expect(answered).toBeUndefined();
    expect(frame).toContain('? Ship it?');
    expect(frame).toContain('✗ "looks fine" is none of the options of gate review: [A] Approve, [R]');
    app.stdin.write('\u001b');
    await frameWhere(app, (f) => !f.includes('> looks fine'));
    app.stdin.write('r');
    await vi.waitFor(() => expect(answered).toEqual({ selected: question.options[1] }));
  });

  test('↓ + Enter answers with the second option', async () => {
    const { app, broker } = mount(width);
    unmount = app.unmount;
    const answer = broker.ask(question, new AbortController().signal);
    await frameShows(app, '? Ship it?');
    app.stdin.write(DOWN);
    await frameShows(app, /❯ \[R\] Revise/);
    app.stdin.write(ENTER);
    await expect(answer).resolves.toEqual({ selected: question.options[1] });
  });
});

test('Ctrl-C once pauses, twice cancels; "pausing" comes from the actor, not from the key', async () => {
  const { app, controls, store } = mount(100);
  unmount = app.unmount;
  store.push(ev('interview.complete', 'review', { key: 'A' }));
  await frameShows(app, /Review · wait\.human/);
  app.stdin.write(CTRL_C);
  await vi.waitFor(() => expect(controls.pause).toHaveBeenCalledTimes(1));
  expect(controls.cancel).not.toHaveBeenCalled();
  // Until the pipeline actor has taken the pause, the TUI does not claim it.
  expect(app.frame()).not.toContain('pausing after this node');
  store.observe(rootSnapshot({ review: 'run' }, { pauseRequested: true }));
  await frameShows(app, 'pausing after this node');
  expect(app.frame()).toContain('^C again: cancel now');
  app.stdin.write(CTRL_C);
  await vi.waitFor(() => expect(controls.cancel).toHaveBeenCalledTimes(1));
});

test('at a gate, Ctrl-C stops at once (nothing to finish) and ? shows the help it offers', async () => {
  const { app, controls, broker } = mount(100);
  unmount = app.unmount;
  void broker.ask(question, new AbortController().signal).catch(() => {});
  await frameShows(app, '? Ship it?');
  app.stdin.write('?');
  await frameShows(app, 'show / hide this help');
  app.stdin.write(CTRL_C);
  await vi.waitFor(() => expect(controls.cancel).toHaveBeenCalledTimes(1));
  expect(controls.pause).not.toHaveBeenCalled();
});

test('↑/↓ select a node and its activity shows; f follows the running node again; ? shows help', async () => {
  const { app, store } = mount(100);
  unmount = app.unmount;
  store.push(ev('interview.complete', 'review', { key: 'A' }));
  await frameShows(app, /Review · wait\.human/);
  app.stdin.write('\u001b[A');
  await frameShows(app, /▸ ✓ join/);
  expect(app.frame()).toMatch(/join · parallel\.fan_in/);
  app.stdin.write('f');
  await frameShows(app, /Review · wait\.human/);
  app.stdin.write('?');
  await frameShows(app, 'pause after the current node (checkpoint, resume command printed)');
  expect(app.frame()).toContain('at a gate, stop now');
});

test('attached without a way to answer: the gate is shown read-only and q quits', async () => {
  const store = createRunStore(graphOf());
  for (const event of runToGate()) store.push(event);
  const onQuit = vi.fn();
  const app = renderAt(<App store={store} onQuit={onQuit} size={{ columns: 80, rows: 60 }} />, 80);
  unmount = app.unmount;
  await frameShows(app, 'read-only: this run cannot be answered from here');
  expect(app.frame()).toContain('[A] Approve');
  // The evidence is shown here too, but Tab offers nothing: the keys go to the nodes.
  expect(app.frame()).toContain('evidence: implement');
  expect(app.frame()).not.toContain('Tab: scroll this');
  app.stdin.write(CTRL_C);
  expect(onQuit).toHaveBeenCalledTimes(1);
});

test('renders at most 30 times a second however fast events come', async () => {
  const store = createRunStore(graphOf());
  store.push(ev('pipeline.start', undefined, { name: 'release', run_id: 'r' }));
  store.push(ev('node.start', 'plan', { attempt: 1 }));
  const app = renderAt(
    <App store={store} controls={{ pause() {}, cancel() {} }} size={{ columns: 80, rows: 40 }} />,
    80,
  );
  unmount = app.unmount;
  await frameShows(app, /Plan the change +agent/);
  const before = app.frames.length;
  const started = Date.now();
  for (let i = 0; i < 500; i++) {
    store.push(ev('agent.assistant_text_delta', 'plan', { text: `word${i} ` }, 0));
    // A rate is what is measured: the events come over time, with pauses the throttle could draw in.
    if (i % 50 === 0) await settle(10);
  }
  await frameShows(app, 'word499');
  // Renders between the first delta and now, settling included (the spinner ticks through it too).
  const seconds = (Date.now() - started) / 1000;
  expect(app.frame()).toContain('word499');
  expect(app.frames.length - before).toBeLessThanOrEqual(Math.ceil(seconds * 30) + 2);
});

test('NO_COLOR: the theme has no colours; FORCE_COLOR wins', () => {
  expect(Object.values(themeFor({ NO_COLOR: '1' })).every((c) => c === undefined)).toBe(true);
  expect(themeFor({}).ok).toBe('green');
  expect(themeFor({ NO_COLOR: '1', FORCE_COLOR: '1' }).ok).toBe('green');
  // The provider is what the entry points wrap the app in.
  expect(ThemeContext).toBeDefined();
});
