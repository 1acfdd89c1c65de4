import { describe, expect, it } from 'vitest';
import {
  normalizeLabel,
  parseAcceleratorKey,
  stripAcceleratorPrefix,
} from '../../../src/compiler/accelerator.js';

describe('parseAcceleratorKey', () => {
  it.each([
    ['[A] Approve', 'A', 'Approve'],
    ['[a] approve', 'A', 'approve'],
    ['R) Reject', 'R', 'Reject'],
    ['S - Skip', 'S', 'Skip'],
    ['Proceed', 'P', 'Proceed'],
    ['  yes  ', 'Y', 'yes'],
    ['[F]Fix', 'F', 'Fix'],
    ['1) First', '1', 'First'],
    ['Re-run - later', 'R', 'Re-run - later'],
    ['', '', ''],
  ])('%j → key %j, label %j', (label, key, text) => {
    expect(parseAcceleratorKey(label)).toEqual({ key, label: text });
  });
});

describe('normalizeLabel', () => {
  it.each([
    ['[R] Revise', 'revise'],
    ['R) Revise', 'revise'],
    ['R - Revise', 'revise'],
    ['  Revise ', 'revise'],
    ['Proceed', 'proceed'],
    ['Go-Live', 'go-live'],
  ])('%j → %j', (label, expected) => {
    expect(normalizeLabel(label)).toBe(expected);
  });

  it('stripAcceleratorPrefix leaves unprefixed labels alone', () => {
    expect(stripAcceleratorPrefix('Approve')).toBe('Approve');
  });
});
