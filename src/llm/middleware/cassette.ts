import * as z from 'zod';
import type { Request, Response, StreamEvent } from '../types.js';

/** One recorded call: the request and either its response, its stream events, or the error it ended with. */
export const cassetteEntrySchema = z.object({
  version: z.literal(1),
  kind: z.enum(['complete', 'stream']),
  request: z.record(z.string(), z.unknown()),
  response: z.record(z.string(), z.unknown()).optional(),
  events: z.array(z.record(z.string(), z.unknown())).optional(),
  error: z.record(z.string(), z.unknown()).optional(),
  /** Who made the call, when the recorder knows (a pipeline node): named in replay mismatches. */
  caller: z.string().optional(),
});

export type CassetteEntry = {
  version: 1;
  kind: 'complete' | 'stream';
  request: Request;
  response?: Response;
  events?: StreamEvent[];
  error?: Record<string, unknown>;
  caller?: string;
};

/** Parses a JSONL cassette; a malformed line is bad input and throws with its line number. */
export function parseCassette(text: string, source = 'cassette'): CassetteEntry[] {
  const entries: CassetteEntry[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new SyntaxError(`${source}:${index + 1}: not valid JSON`);
    }
    const parsed = cassetteEntrySchema.safeParse(json);
    if (!parsed.success) {
      throw new SyntaxError(`${source}:${index + 1}: not a cassette entry: ${z.prettifyError(parsed.error)}`);
    }
    entries.push(parsed.data as unknown as CassetteEntry);
  });
  return entries;
}

/** Stable JSON (sorted keys, undefined dropped) so equal requests compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}
