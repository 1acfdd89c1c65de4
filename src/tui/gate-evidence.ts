/** Where the keys go at a gate, and how far the evidence beside it is scrolled. */
export interface EvidenceView {
  focus: 'options' | 'evidence';
  /** The first evidence line shown. */
  offset: number;
}

export const initialEvidenceView: EvidenceView = { focus: 'options', offset: 0 };

export interface EvidenceKey {
  input: string;
  tab?: boolean;
  escape?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
}

/**
 * One key at a gate as the evidence takes it (pure): Tab moves the keys between the options and the
 * evidence; while the evidence has them, ↑/↓ scroll a line, PgUp/PgDn (or space) a page, Esc gives
 * them back to the options, and every other key is swallowed so nothing answers the gate by accident.
 * Undefined: the key is the options' (`gateInput`).
 */
export function evidenceKey(
  view: EvidenceView,
  key: EvidenceKey,
  total: number,
  rows: number,
): EvidenceView | undefined {
  if (key.tab) return { ...view, focus: view.focus === 'options' ? 'evidence' : 'options' };
  if (view.focus === 'options') return undefined;
  if (key.escape) return { ...view, focus: 'options' };
  const page = Math.max(1, rows - 1);
  const step = key.upArrow
    ? -1
    : key.downArrow
      ? 1
      : key.pageUp
        ? -page
        : key.pageDown || key.input === ' '
          ? page
          : 0;
  const last = Math.max(0, total - rows);
  return { ...view, offset: Math.min(last, Math.max(0, view.offset + step)) };
}
