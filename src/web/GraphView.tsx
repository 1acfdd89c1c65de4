import { useEffect, useRef, useState } from 'react';
import { fetchSvg } from './api.js';

/**
 * The server's drawing of the pipeline, coloured by each node's status as events arrive (a
 * `data-status` the stylesheet colours, light or dark). Nodes are buttons: click, Enter or Space
 * opens one.
 */
export function GraphView({
  runId,
  statuses,
  selected,
  onSelect,
}: {
  runId: string;
  statuses: Readonly<Record<string, string>>;
  selected: string | undefined;
  onSelect: (node: string) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [svg, setSvg] = useState('');
  const [error, setError] = useState('');
  const select = useRef(onSelect);
  select.current = onSelect;

  useEffect(() => {
    fetchSvg(`/pipelines/${encodeURIComponent(runId)}/graph?format=svg`).then(setSvg, (e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  }, [runId]);

  // The SVG is our server's rendering of the graph (labels escaped by Graphviz); it is set once and
  // its nodes made reachable by keyboard.
  useEffect(() => {
    const root = box.current;
    if (!root || !svg) return;
    root.innerHTML = svg;
    for (const g of root.querySelectorAll<SVGGElement>('g.node')) {
      const name = g.querySelector('title')?.textContent ?? '';
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `node ${name}`);
      g.dataset['node'] = name;
      g.addEventListener('click', () => select.current(name));
      g.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          select.current(name);
        }
      });
    }
  }, [svg]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new drawing needs its colours again
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    for (const g of root.querySelectorAll<SVGGElement>('g.node')) {
      const name = g.dataset['node'] ?? '';
      g.dataset['status'] = statuses[name] ?? 'pending';
      g.classList.toggle('selected', name === selected);
    }
  }, [statuses, selected, svg]);

  return (
    <>
      {error && <p className="error">{error}</p>}
      {/* Filled with the SVG outside React, which renders nothing inside it. */}
      <div className="graph" id="graph" ref={box} />
    </>
  );
}
