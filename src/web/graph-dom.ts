import { NODE_STATUS_LABEL } from './format.js';
import type { Box } from './graph-view-box.js';

/** A node of the drawing: its id, the words it shows, its group and where it lies. */
export interface DrawnNode {
  id: string;
  label: string;
  element: SVGGElement;
  box: Box;
}

/** The drawing put into `root`: its SVG, its full extent, its nodes in reading order, its edges. */
export interface Drawing {
  svg: SVGSVGElement;
  extent: Box;
  nodes: DrawnNode[];
  edges: { key: string; element: SVGGElement }[];
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A box of an element in the drawing's units: its own box mapped through to the SVG's user space. */
function boxOf(element: SVGGraphicsElement, svg: SVGSVGElement): Box {
  const own = element.getBBox();
  const toScreen = element.getScreenCTM();
  const fromScreen = svg.getScreenCTM()?.inverse();
  if (!toScreen || !fromScreen) return { x: own.x, y: own.y, width: own.width, height: own.height };
  const matrix = fromScreen.multiply(toScreen);
  const a = new DOMPoint(own.x, own.y).matrixTransform(matrix);
  const b = new DOMPoint(own.x + own.width, own.y + own.height).matrixTransform(matrix);
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(b.x - a.x),
    height: Math.abs(b.y - a.y),
  };
}

/**
 * Puts our server's SVG (labels escaped by Graphviz) into `root`, sized by its panel rather than its
 * points, and reads its nodes in the order they are laid out (top to bottom, then left to right): the
 * order the arrow keys move in. Titles give way to accessible names (set when painted).
 */
export function putDrawing(root: HTMLElement, svgText: string): Drawing | undefined {
  root.innerHTML = svgText;
  const svg = root.querySelector('svg');
  if (!svg) return undefined;
  const base = svg.viewBox.baseVal;
  const extent = { x: base.x, y: base.y, width: base.width, height: base.height };
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'Pipeline graph: arrow keys move between nodes, Enter opens one');
  for (const title of svg.querySelectorAll(':scope > title, :scope > g > title')) title.remove();
  for (const decoration of svg.querySelectorAll(':scope > g > polygon, :scope > g > text'))
    decoration.setAttribute('aria-hidden', 'true');
  const nodes = [...svg.querySelectorAll<SVGGElement>('g.node')].map((element) => {
    const title = element.querySelector('title');
    const id = title?.textContent ?? '';
    title?.remove();
    const label =
      [...element.querySelectorAll('text')]
        .map((t) => t.textContent ?? '')
        .join(' ')
        .trim() || id;
    element.dataset['node'] = id;
    return { id, label, element, box: boxOf(element, svg) };
  });
  nodes.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const edges = [...svg.querySelectorAll<SVGGElement>('g.edge')].map((element) => {
    const title = element.querySelector('title');
    const key = title?.textContent ?? '';
    title?.remove();
    element.setAttribute('aria-hidden', 'true');
    element.dataset['edge'] = key;
    return { key, element };
  });
  return { svg, extent, nodes, edges };
}

/** What the drawing shows of the run: statuses, visits, the edges taken, the chosen and focusable node. */
export interface DrawingState {
  statuses: Readonly<Record<string, string>>;
  visits: ReadonlyMap<string, number>;
  taken: ReadonlySet<string>;
  selected: string | undefined;
  focusable: string | undefined;
}

/**
 * A node's visit count, drawn at its top right corner in a layer of its own above the drawing (hidden
 * from screen readers: the node's name says it), so a node's visible text stays its label.
 */
function visitBadge(drawing: Drawing, node: DrawnNode, count: number): void {
  let layer = drawing.svg.querySelector<SVGGElement>(':scope > g.visit-badges');
  if (!layer) {
    layer = document.createElementNS(SVG_NS, 'g');
    layer.setAttribute('class', 'visit-badges');
    layer.setAttribute('aria-hidden', 'true');
    drawing.svg.append(layer);
  }
  let badge = layer.querySelector<SVGTextElement>(`text[data-node="${CSS.escape(node.id)}"]`);
  if (count === 0) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = document.createElementNS(SVG_NS, 'text');
    badge.setAttribute('class', 'visits');
    badge.setAttribute('text-anchor', 'start');
    badge.dataset['node'] = node.id;
    badge.setAttribute('x', String(node.box.x + node.box.width + 2));
    badge.setAttribute('y', String(node.box.y + 8));
    layer.append(badge);
  }
  badge.textContent = `×${count}`;
}

/** Colours, names and marks the drawing for the run as it stands (cheap: attributes only). */
export function paintDrawing(drawing: Drawing, state: DrawingState): void {
  for (const node of drawing.nodes) {
    const status = state.statuses[node.id] ?? 'pending';
    const count = state.visits.get(node.id) ?? 0;
    const el = node.element;
    el.dataset['status'] = status;
    el.dataset['visits'] = String(count);
    el.setAttribute('role', 'button');
    el.setAttribute('tabindex', node.id === state.focusable ? '0' : '-1');
    const visits = count > 1 ? `, ${count} visits` : '';
    el.setAttribute('aria-label', `${node.label}: ${NODE_STATUS_LABEL[status] ?? status}${visits}`);
    el.setAttribute('aria-pressed', String(node.id === state.selected));
    el.classList.toggle('selected', node.id === state.selected);
    visitBadge(drawing, node, count);
  }
  for (const edge of drawing.edges) edge.element.classList.toggle('taken', state.taken.has(edge.key));
}
