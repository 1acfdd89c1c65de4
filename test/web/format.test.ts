import { describe, expect, it } from 'vitest';
import { formatCost, formatDuration, runDurationMs } from '../../src/web/format.js';

describe('the web view formats', () => {
  it.each([
    [undefined, '—'],
    [-1, '—'],
    [850, '850 ms'],
    [12_340, '12.3 s'],
    [245_000, '4 m 05 s'],
    [7_380_000, '2 h 03 m'],
  ])('duration %s → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));

  it.each([
    [0, '$0.00'],
    [0.004, '<$0.01'],
    [0.66, '$0.66'],
    [12.345, '$12.35'],
  ])('cost %s → %s', (usd, text) => expect(formatCost(usd)).toBe(text));

  const t = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const now = Date.parse(t(100));
  it.each([
    ['not started', { status: 'queued' }, undefined],
    ['running: to now', { status: 'running', started_at: t(10) }, 90_000],
    ['waiting: to now', { status: 'waiting', started_at: t(10) }, 90_000],
    ['ended: to its end', { status: 'completed', started_at: t(10), ended_at: t(40) }, 30_000],
    ['paused: to its last change', { status: 'paused', started_at: t(10), updated_at: t(20) }, 10_000],
  ])('run duration, %s', (_name, run, ms) => expect(runDurationMs(run, now)).toBe(ms));
});
