import { type NodeAttrs, SHAPE_HANDLERS } from '../ir.js';

/** Handler type of a node: its `type` attribute, else its shape's handler, else `codergen`. */
export function resolveHandler(attrs: Pick<NodeAttrs, 'type' | 'shape'>): string {
  const type = attrs.type?.trim();
  if (type) return type;
  const shape = attrs.shape?.trim();
  if (shape && Object.hasOwn(SHAPE_HANDLERS, shape)) return SHAPE_HANDLERS[shape]!;
  return 'codergen';
}
