import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { fetchSvg } from './api.js';
import { GraphTools } from './GraphTools.js';
import { type Drawing, paintDrawing, putDrawing } from './graph-dom.js';
import { type Box, follow, initialView, viewBoxText, zoomView } from './graph-view-box.js';
import { useGraphPointer } from './use-graph-pointer.js';

const MOVES: Readonly<Record<string, number>> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

/**
 * The server's drawing of the pipeline in a panel it fits: coloured and named by each node's status,
 * its visits counted, the edges the run took marked. It follows the node the run is at until the reader
 * pans or zooms (drag, wheel, the buttons); Fit and Follow bring it back. Nodes are one roving tab stop:
 * the arrow keys move in layout order, Enter or Space (or a click) opens one.
 */
export function GraphView({
  runId,
  statuses,
  visits,
  taken,
  current,
  selected,
  onSelect,
}: {
  runId: string;
  statuses: Readonly<Record<string, string>>;
  visits: ReadonlyMap<string, number>;
  taken: ReadonlySet<string>;
  current: string | undefined;
  selected: string | undefined;
  onSelect: (node: string) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const drawing = useRef<Drawing | undefined>(undefined);
  const [svg, setSvg] = useState('');
  const [error, setError] = useState('');
  const [view, setView] = useState<Box>();
  const [following, setFollowing] = useState(true);
  const [focused, setFocused] = useState<string>();

  useEffect(() => {
    fetchSvg(`/pipelines/${encodeURIComponent(runId)}/graph?format=svg`).then(setSvg, (e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  }, [runId]);

  const panel = (): { width: number; height: number } => ({
    width: box.current?.clientWidth ?? 0,
    height: box.current?.clientHeight ?? 0,
  });
  const nodeBox = (id: string | undefined): Box | undefined =>
    drawing.current?.nodes.find((n) => n.id === id)?.box;
  const fitView = (): void => {
    const d = drawing.current;
    if (d) setView(initialView(d.extent, panel(), nodeBox(current)));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new drawing is fitted once
  useEffect(() => {
    const root = box.current;
    if (!root || !svg) return;
    drawing.current = putDrawing(root, svg);
    fitView();
  }, [svg]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the run's node, not the view
  useEffect(() => {
    const target = nodeBox(current);
    if (following && target && view) setView(follow(view, target));
  }, [current, following, svg]);

  useEffect(() => {
    if (view) drawing.current?.svg.setAttribute('viewBox', viewBoxText(view));
  }, [view]);

  const focusable = focused ?? selected ?? current ?? drawing.current?.nodes[0]?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new drawing is painted too
  useEffect(() => {
    if (drawing.current) paintDrawing(drawing.current, { statuses, visits, taken, selected, focusable });
  }, [statuses, visits, taken, selected, focusable, svg]);

  const byReader = (next: Box): void => {
    setFollowing(false);
    setView(next);
  };
  const zoom = (factor: number): void => {
    if (view) byReader(zoomView(view, factor));
  };
  const nodeOf = (target: EventTarget): string | undefined =>
    target instanceof Element
      ? (target.closest<SVGGElement>('g.node')?.dataset['node'] ?? undefined)
      : undefined;

  const onKeyDown = (event: KeyboardEvent): void => {
    const d = drawing.current;
    const at = nodeOf(event.target);
    if (!d || at === undefined) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(at);
      return;
    }
    const index = d.nodes.findIndex((n) => n.id === at);
    const step = MOVES[event.key];
    const next =
      event.key === 'Home' ? 0 : event.key === 'End' ? d.nodes.length - 1 : step ? index + step : undefined;
    const node = next === undefined ? undefined : d.nodes[Math.max(0, Math.min(d.nodes.length - 1, next))];
    if (!node) return;
    event.preventDefault();
    setFocused(node.id);
    if (view) setView(follow(view, node.box));
    node.element.focus();
  };

  const pointer = useGraphPointer(box, view, byReader, (target) => {
    const node = nodeOf(target);
    if (node !== undefined) onSelect(node);
  });

  return (
    <>
      <GraphTools
        onFit={() => {
          setFollowing(false);
          fitView();
        }}
        onZoom={zoom}
        following={following}
        onFollow={() => setFollowing((f) => !f)}
      />
      {error && <p className="error">{error}</p>}
      {/* Filled with the SVG outside React, which renders nothing inside it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the nodes inside are the buttons; this pans */}
      <div
        className="graph"
        id="graph"
        ref={box}
        onKeyDown={onKeyDown}
        onFocus={(e) => setFocused(nodeOf(e.target) ?? focused)}
        onPointerDown={pointer.onPointerDown}
        onPointerMove={pointer.onPointerMove}
        onPointerUp={pointer.onPointerUp}
        onPointerCancel={pointer.onPointerCancel}
      />
    </>
  );
}
