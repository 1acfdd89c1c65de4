import type { ReactNode } from 'react';

/**
 * Preformatted text in a box that scrolls when long: a tab stop, so the keyboard scrolls it too
 * (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollPre({ className, children }: { className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <pre tabIndex={0} className={className}>
      {children}
    </pre>
  );
}
