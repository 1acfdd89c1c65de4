import { useEffect, useRef } from 'react';
import type { TranscriptEntry } from './run-transcript.js';
import { ScrollPre } from './ScrollPre.js';

/** The agent's words and tool calls as they stream, grouped under the node that produced them. */
export function TranscriptView({ entries, live }: { entries: readonly TranscriptEntry[]; live: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  // Follow the end while the reader is at the end; leave them where they scrolled to otherwise.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll after every change of the entries
  useEffect(() => {
    const el = box.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [entries]);
  if (entries.length === 0) {
    return (
      <p className="muted" id="transcript">
        {live ? 'The agent has said nothing yet.' : 'No agent transcript in this run.'}
      </p>
    );
  }
  return (
    <div
      className="transcript"
      id="transcript"
      ref={box}
      role="log"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must scroll by keyboard too
      tabIndex={0}
      aria-labelledby="transcript-title"
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {entries.map((entry, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: entries only grow at the end; an index is stable
        <div key={i}>
          {entry.node !== entries[i - 1]?.node && <h3 className="transcript-node mono">{entry.node}</h3>}
          <EntryBody entry={entry} />
        </div>
      ))}
    </div>
  );
}

function EntryBody({ entry }: { entry: TranscriptEntry }) {
  switch (entry.type) {
    case 'text':
      return <p className="say">{entry.text}</p>;
    case 'thought':
      return <p className="thought">{entry.text}</p>;
    case 'note':
      return <p className="note">{entry.text}</p>;
    case 'tool':
      return (
        <details className={`tool${entry.isError ? ' tool-error' : ''}`}>
          <summary>
            <span className="mono">{entry.name}</span>
            {entry.done ? (entry.isError ? ' · error' : '') : ' · running…'}
          </summary>
          {entry.args && <ScrollPre>{entry.args}</ScrollPre>}
          {entry.output && <ScrollPre className="output">{entry.output}</ScrollPre>}
        </details>
      );
  }
}
