/** A rectangle in the drawing's own units (Graphviz points). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest scale (screen pixels per point) at which a node's label still reads. */
export const MIN_READABLE_SCALE = 0.9;

/** A box of the panel's shape around `center`, at `scale` pixels per point. */
function boxAround(
  center: { x: number; y: number },
  panel: { width: number; height: number },
  scale: number,
): Box {
  const width = panel.width / scale;
  const height = panel.height / scale;
  return { x: center.x - width / 2, y: center.y - height / 2, width, height };
}

const centerOf = (box: Box): { x: number; y: number } => ({
  x: box.x + box.width / 2,
  y: box.y + box.height / 2,
});

/**
 * The first view of a drawing in a panel: all of it when it fits at a readable scale; else a readable
 * part of it around `focus` (the node the run is at), so the current node is on screen either way.
 */
export function initialView(drawing: Box, panel: { width: number; height: number }, focus?: Box): Box {
  const fit = Math.min(panel.width / drawing.width, panel.height / drawing.height);
  if (fit >= MIN_READABLE_SCALE || panel.width <= 0 || panel.height <= 0) return drawing;
  return boxAround(centerOf(focus ?? drawing), panel, MIN_READABLE_SCALE);
}

/** `view` zoomed by `factor` (above 1: closer) about `at`, a point of the drawing that stays put. */
export function zoomView(view: Box, factor: number, at: { x: number; y: number } = centerOf(view)): Box {
  const width = view.width / factor;
  const height = view.height / factor;
  return {
    x: at.x - ((at.x - view.x) * width) / view.width,
    y: at.y - ((at.y - view.y) * height) / view.height,
    width,
    height,
  };
}

/** `view` moved by a distance in the drawing's units. */
export const panView = (view: Box, dx: number, dy: number): Box => ({
  ...view,
  x: view.x + dx,
  y: view.y + dy,
});

/** Whether `box` lies wholly inside `view`. */
export function contains(view: Box, box: Box): boolean {
  return (
    box.x >= view.x &&
    box.y >= view.y &&
    box.x + box.width <= view.x + view.width &&
    box.y + box.height <= view.y + view.height
  );
}

/** `view` unchanged when `box` is inside it; else the same size, centred on `box` (following a node). */
export function follow(view: Box, box: Box): Box {
  if (contains(view, box)) return view;
  const center = centerOf(box);
  return { ...view, x: center.x - view.width / 2, y: center.y - view.height / 2 };
}

export const viewBoxText = (view: Box): string =>
  [view.x, view.y, view.width, view.height].map((n) => Number(n.toFixed(2))).join(' ');
