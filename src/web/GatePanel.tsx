import { type FormEvent, useState } from 'react';
import { api } from './api.js';
import type { Question } from './api-types.js';

/** The question a gate asks, answered in place: its options as buttons, free text where it takes it. */
export function GatePanel({
  runId,
  question,
  onAnswered,
}: {
  runId: string;
  question: Question;
  onAnswered: () => void;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const answer = async (value: string): Promise<void> => {
    setBusy(true);
    setError('');
    try {
      await api(
        `/pipelines/${encodeURIComponent(runId)}/questions/${encodeURIComponent(question.id)}/answer`,
        {
          method: 'POST',
          body: { answer: value },
        },
      );
      onAnswered();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const submitText = (event: FormEvent): void => {
    event.preventDefault();
    if (text.trim()) void answer(text.trim());
  };
  return (
    <section className="gate" id="gate" aria-labelledby={`q-${question.id}`}>
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
              disabled={busy}
              onClick={() => void answer(o.key)}
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
