import { describe, expect, it } from 'vitest';
import {
  contains,
  follow,
  initialView,
  MIN_READABLE_SCALE,
  viewBoxText,
  zoomView,
} from '../../src/web/graph-view-box.js';

const drawing = { x: 0, y: 0, width: 200, height: 4000 };
const panel = { width: 600, height: 450 };

describe('the graph view box', () => {
  it('shows all of a drawing that fits readably', () => {
    const small = { x: 0, y: 0, width: 135, height: 371 };
    expect(initialView(small, panel)).toEqual(small);
  });

  it('shows a readable part of a tall drawing, centred on the current node', () => {
    const node = { x: 80, y: 3900, width: 40, height: 20 };
    const view = initialView(drawing, panel, node);
    expect(view.width).toBeCloseTo(panel.width / MIN_READABLE_SCALE);
    expect(view.height).toBeCloseTo(panel.height / MIN_READABLE_SCALE);
    expect(contains(view, node)).toBe(true);
    expect(view.x + view.width / 2).toBeCloseTo(100);
    expect(view.y + view.height / 2).toBeCloseTo(3910);
  });

  it('zooms about a point that stays put', () => {
    const view = { x: 0, y: 0, width: 100, height: 100 };
    expect(zoomView(view, 2, { x: 50, y: 50 })).toEqual({ x: 25, y: 25, width: 50, height: 50 });
    expect(zoomView(view, 2, { x: 0, y: 0 })).toEqual({ x: 0, y: 0, width: 50, height: 50 });
  });

  it('follows a node only when it leaves the view', () => {
    const view = { x: 0, y: 0, width: 100, height: 100 };
    const inside = { x: 10, y: 10, width: 10, height: 10 };
    expect(follow(view, inside)).toBe(view);
    expect(follow(view, { x: 300, y: 300, width: 10, height: 10 })).toEqual({
      x: 255,
      y: 255,
      width: 100,
      height: 100,
    });
    expect(viewBoxText({ x: 1.234, y: 0, width: 10, height: 5.5 })).toBe('1.23 0 10 5.5');
  });
});
