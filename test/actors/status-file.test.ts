import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  outcomeToStatusFile,
  readStatusFile,
  StatusFileSchema,
  statusFileToOutcome,
  writeStatusFile,
} from '../../src/actors/status-file.js';
import { StatusFileError } from '../../src/actors/status-file-error.js';
import type { Outcome } from '../../src/compiler/outcome.js';

describe('status.json', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'attractor-status-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each<[string, Outcome]>([
    ['minimal', { status: 'success' }],
    [
      'everything',
      {
        status: 'fail',
        preferred_label: 'revise',
        suggested_next_ids: ['a'],
        context_updates: { k: [1, 2] },
        notes: 'n',
        failure_reason: 'f',
        score: 0.5,
      },
    ],
  ])('round-trips an outcome (%s)', (_name, outcome) => {
    const path = join(dir, 'status.json');
    writeStatusFile(path, outcome);
    const read = readStatusFile(path);
    expect(read).toMatchObject({ ...outcome });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveProperty('outcome', outcome.status);
  });

  it('writes the five contract fields even when empty', () => {
    expect(outcomeToStatusFile({ status: 'retry' })).toEqual({
      outcome: 'retry',
      preferred_label: '',
      suggested_next_ids: [],
      context_updates: {},
      notes: '',
    });
  });

  it.each([
    [{ outcome: 'SUCCESS' }, { status: 'success' }],
    [
      { outcome: 'fail', preferred_next_label: 'x' },
      { status: 'fail', preferred_label: 'x' },
    ],
    [
      { outcome: 'fail', preferred_label: '', preferred_next_label: 'x' },
      { status: 'fail', preferred_label: 'x' },
    ],
    [{ outcome: 'success', preferred_label: '' }, { status: 'success' }],
  ])('accepts %j', (file, expected) => {
    expect(statusFileToOutcome(StatusFileSchema.parse(file))).toEqual(expected);
  });

  it('returns undefined when there is no file', () => {
    expect(readStatusFile(join(dir, 'none.json'))).toBeUndefined();
  });

  it.each([
    ['{', /not JSON/],
    ['[]', /expected object/i],
    ['{"outcome": 1}', /outcome/],
    ['{"outcome": "success", "suggested_next_ids": "a"}', /suggested_next_ids/],
  ])('rejects %j with a StatusFileError naming the file', (content, message) => {
    const path = join(dir, 'status.json');
    writeFileSync(path, content);
    expect(() => readStatusFile(path)).toThrow(StatusFileError);
    expect(() => readStatusFile(path)).toThrow(message);
    expect(() => readStatusFile(path)).toThrow(path);
  });
});
