import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { openEventLog } from '../../src/run/event-log.js';
import type { PipelineEvent } from '../../src/shared/pipeline-event.js';
import { tempDir } from '../helpers/temp-dir.js';

const event = (kind: string) => ({ kind, data: {}, timestamp: '2026-11-23T00:00:00.000Z' }) as PipelineEvent;

test.each([
  ['a torn last line (a process killed mid-write)', '{"kind":"a"}\n{"kind":"b","da', 3],
  ['whole lines', '{"kind":"a"}\n', 2],
  ['an empty file', '', 1],
])('after %s, the next event is a line of its own', (_what, before, lines) => {
  const dir = tempDir('attractor-events-');
  const file = path.join(dir, 'events.jsonl');
  writeFileSync(file, before);
  const log = openEventLog(file);
  log.append(event('pipeline.resume'));
  log.close();
  const written = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  expect(written).toHaveLength(lines);
  expect(JSON.parse(written.at(-1)!)).toMatchObject({ kind: 'pipeline.resume' });
});
