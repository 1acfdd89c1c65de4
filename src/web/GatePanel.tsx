import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api } from './api.js';
import type { Question } from './api-types.js';

/** Typing in a field is not answering a gate. */
const typing = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * The question a gate asks, answered in place: its options as buttons (each also answered by its `[K]`
 * key anywhere on the page but in a field), free text where it takes it. The answer's label goes to
 * `onAnswered`, which confirms it. The buttons are disabled while an answer is on its way, and the
 * server takes one answer per question (a second is refused, 409), so a double click answers once.
 */
export function GatePanel({
  runId,
  question,
  takesKeys = true,
  focused = false,
  onAnswered,
}: {
  runId: string;
  question: Question;
  takesKeys?: boolean;
  /** The page was opened for this gate (its link): it takes the keyboard's focus when it appears. */
  focused?: boolean;
  onAnswered: (label: string) => void;
}) {
  const section = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the gate appears
  useEffect(() => {
    if (!focused) return;
    section.current?.scrollIntoView({ block: 'nearest' });
    section.current?.focus({ preventScroll: true });
  }, []);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // A key pressed twice comes faster than a re-render disables anything: one answer at a time.
  const sending = useRef(false);
  const answer = async (value: string, label: string): Promise<void> => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    setError('');
    try {
      await api(
        `/pipelines/${encodeURIComponent(runId)}/questions/${encodeURIComponent(question.id)}/answer`,
        { method: 'POST', body: { answer: value } },
      );
      onAnswered(label);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  const byKey = useRef(answer);
  byKey.current = answer;
  useEffect(() => {
    if (!takesKeys || question.options.length === 0) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const option = question.options.find((o) => o.key.toLowerCase() === event.key.toLowerCase());
      if (!option) return;
      event.preventDefault();
      void byKey.current(option.key, option.label);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [takesKeys, question]);
  const submitText = (event: FormEvent): void => {
    event.preventDefault();
    if (text.trim()) void answer(text.trim(), text.trim());
  };
  return (
    <section
      className="gate"
      id="gate"
      data-stage={question.stage}
      aria-labelledby={`q-${question.id}`}
      tabIndex={-1}
      ref={section}
    >
      <div className="gate-head">
        <span className="badge status-waiting">waiting for you</span>
        <span className="mono muted">{question.stage}</span>
      </div>
      <h2 id={`q-${question.id}`}>{question.text}</h2>
      {question.options.length > 0 && (
        <div className="gate-options">
          {question.options.map((o) => (
            <button
              key={o.key}
              type="button"
              className="option"
              data-key={o.key}
              aria-keyshortcuts={takesKeys && o.key.length === 1 ? o.key : undefined}
              disabled={busy}
              onClick={() => void answer(o.key, o.label)}
            >
              {o.label}
            </button>
          ))}
        </div>
      )}
      {question.accepts_text && (
        <form className="gate-text" onSubmit={submitText}>
          <label>
            {question.options.length > 0 ? 'Or answer in words' : 'Your answer'}
            <textarea id="gate-text" value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <button type="submit" className="primary" disabled={busy || !text.trim()}>
            Send
          </button>
        </form>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
