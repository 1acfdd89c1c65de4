import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventTags } from '../../../src/shared/events/event-data-object.js';
import { EVENT_KINDS, eventDataSchemas } from '../../../src/shared/events/event-data-schemas.js';

/** The guide that documents the run's events (docs/guides/runs.md, "Events"). */
const GUIDE = readFileSync(fileURLToPath(new URL('../../../docs/guides/runs.md', import.meta.url)), 'utf8');
const names = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

/** The guide's events table: kind → the data fields its row names. */
function documented(): Map<string, string[]> {
  const start = GUIDE.indexOf('| kind | data fields | what they say |');
  expect(start).toBeGreaterThan(-1);
  const rows = GUIDE.slice(start).split('\n').slice(2);
  const table = new Map<string, string[]>();
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const [kinds = '', fields = ''] = row.split('|').slice(1, 3);
    const kindNames = kinds.split(' / ').map((k) => names(k)[0] ?? '');
    const groups = fields.split(' / ').map(names);
    // One group of fields for every kind of the row, or one group per kind.
    for (const [i, kind] of kindNames.entries())
      table.set(kind, groups.length === kindNames.length ? groups[i]! : groups[0]!);
  }
  return table;
}

/** The fields a kind's schema allows, without the `branch` / `parent` tags every event may carry. */
function schemaFields(kind: keyof typeof eventDataSchemas): string[] {
  const shape: Record<string, unknown> = eventDataSchemas[kind].shape;
  // A parallel branch event's own `branch` is a field of its kind, not the tag.
  const isTag = (field: string) => shape[field] === (eventTags as Record<string, unknown>)[field];
  return Object.keys(shape)
    .filter((field) => !isTag(field))
    .sort();
}

describe("the runs guide's events table", () => {
  const table = documented();
  // The agent's events are its own list (the coding agent's section); the table is the run's events.
  const kinds = EVENT_KINDS.filter((kind) => !kind.startsWith('agent.'));

  it("lists every kind of the schema but the agent's, and no other", () => {
    expect([...table.keys()].sort()).toEqual([...kinds].sort());
  });

  it.each(kinds)('names the data fields of %s as the schema does', (kind) => {
    expect([...(table.get(kind) ?? [])].sort()).toEqual(schemaFields(kind));
  });
});
