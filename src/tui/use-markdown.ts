import { useEffect, useState } from 'react';
import type { MarkdownSegment } from './render-markdown.js';

export type RenderMarkdown = (lines: readonly string[], fence?: string) => MarkdownSegment[][];

/** Lines as they were written, until the markdown renderer is there. */
export const plainLines: RenderMarkdown = (lines) => lines.map((text) => [{ text, style: 'plain' }]);

let loaded: RenderMarkdown | undefined;
let loading: Promise<RenderMarkdown> | undefined;

/** Loads the markdown renderer once; every caller gets the same. */
export function loadMarkdown(): Promise<RenderMarkdown> {
  loading ??= import('./render-markdown.js').then((module) => {
    loaded = module.renderMarkdown;
    return loaded;
  });
  return loading;
}

/**
 * The markdown renderer (markdown-it and highlight.js, a third of the TUI bundle), loaded when the first
 * text is to be shown instead of with the TUI: a start-up does not wait for it, and a run that shows no
 * agent text never loads it (docs/decisions/0023-tui-opens-only-on-a-terminal.md). Until it
 * is there, a frame or two, lines are shown as written; if it cannot load, they stay so.
 */
export function useMarkdown(wanted: boolean): RenderMarkdown | undefined {
  const [render, setRender] = useState<RenderMarkdown | undefined>(() => loaded);
  useEffect(() => {
    if (render || !wanted) return;
    let live = true;
    loadMarkdown().then(
      (renderer) => {
        if (live) setRender(() => renderer);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [render, wanted]);
  return render;
}
