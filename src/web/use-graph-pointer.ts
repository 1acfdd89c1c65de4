import { type PointerEvent, type RefObject, useEffect, useRef } from 'react';
import { type Box, panView, zoomView } from './graph-view-box.js';

/**
 * Dragging pans the drawing, the wheel zooms it about the point under the pointer (not the page), and a
 * press that did not move is a click on the node under it.
 */
export function useGraphPointer(
  box: RefObject<HTMLDivElement | null>,
  view: Box | undefined,
  byReader: (next: Box) => void,
  clicked: (target: EventTarget) => void,
) {
  const drag = useRef<{ x: number; y: number; moved: boolean } | undefined>(undefined);

  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const onWheel = (event: WheelEvent): void => {
      if (!view) return;
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

  return {
    onPointerDown: (event: PointerEvent): void => {
      if (event.button !== 0) return;
      drag.current = { x: event.clientX, y: event.clientY, moved: false };
    },
    onPointerMove: (event: PointerEvent): void => {
      const from = drag.current;
      if (!from || !view) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (!from.moved && Math.hypot(dx, dy) < 4) return;
      if (!from.moved) box.current?.setPointerCapture(event.pointerId);
      const scale = view.width / Math.max(1, box.current?.clientWidth ?? 1);
      drag.current = { x: event.clientX, y: event.clientY, moved: true };
      byReader(panView(view, -dx * scale, -dy * scale));
    },
    onPointerUp: (event: PointerEvent): void => {
      const from = drag.current;
      drag.current = undefined;
      if (!from?.moved) clicked(event.target);
    },
    onPointerCancel: (): void => {
      drag.current = undefined;
    },
  };
}
