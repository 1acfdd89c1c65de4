import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { fetchSvg } from './api.js';
import { type Drawing, paintDrawing, putDrawing } from './graph-dom.js';
import { type Box, follow, initialView, panView, viewBoxText, zoomView } from './graph-view-box.js';

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
  const drag = useRef<{ x: number; y: number; moved: boolean } | undefined>(undefined);

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

  const onPointerDown = (event: PointerEvent): void => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, moved: false };
  };
  const onPointerMove = (event: PointerEvent): void => {
    const from = drag.current;
    if (!from || !view) return;
    const dx = event.clientX - from.x;
    const dy = event.clientY - from.y;
    if (!from.moved && Math.hypot(dx, dy) < 4) return;
    if (!from.moved) box.current?.setPointerCapture(event.pointerId);
    const scale = view.width / Math.max(1, panel().width);
    drag.current = { x: event.clientX, y: event.clientY, moved: true };
    byReader(panView(view, -dx * scale, -dy * scale));
  };
  const onPointerUp = (event: PointerEvent): void => {
    const from = drag.current;
    drag.current = undefined;
    if (from?.moved) return;
    const node = nodeOf(event.target);
    if (node !== undefined) onSelect(node);
  };

  // A wheel zooms the drawing, not the page, about the point under the pointer.
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const onWheel = (event: WheelEvent): void => {
      const d = drawing.current;
      if (!d || !view) return;
      event.preventDefault();
      const rect = root.getBoundingClientRect();
      const at = {
        x: view.x + ((event.clientX - rect.left) / rect.width) * view.width,
        y: view.y + ((event.clientY - rect.top) / rect.height) * view.height,
      };
      byReader(zoomView(view, event.deltaY < 0 ? 1.2 : 1 / 1.2, at));
    };
    root.addEventListener('wheel', onWheel, { passive: false });
    return () => root.removeEventListener('wheel', onWheel);
  });

  return (
    <>
      <div className="graph-tools" role="toolbar" aria-label="Graph view">
        <button
          type="button"
          id="graph-fit"
          onClick={() => {
            setFollowing(false);
            fitView();
          }}
        >
          Fit
        </button>
        <button type="button" id="graph-zoom-in" aria-label="Zoom in" onClick={() => zoom(1.25)}>
          +
        </button>
        <button type="button" id="graph-zoom-out" aria-label="Zoom out" onClick={() => zoom(1 / 1.25)}>
          −
        </button>
        <button
          type="button"
          id="graph-follow"
          aria-pressed={following}
          onClick={() => setFollowing((f) => !f)}
        >
          Follow the run
        </button>
      </div>
      {error && <p className="error">{error}</p>}
      {/* Filled with the SVG outside React, which renders nothing inside it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the nodes inside are the buttons; this pans */}
      <div
        className="graph"
        id="graph"
        ref={box}
        onKeyDown={onKeyDown}
        onFocus={(e) => setFocused(nodeOf(e.target) ?? focused)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          drag.current = undefined;
        }}
      />
    </>
  );
}
