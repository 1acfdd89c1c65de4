import { InvalidArgumentError } from 'commander';
import { parseByteSize } from '../working-tree/byte-size.js';

/** Commander argument parser for a size (`--snapshot-budget 500MB`): a bad value is a usage error (exit 2). */
export function parseSizeFlag(value: string): number {
  const bytes = parseByteSize(value);
  if (bytes === undefined)
    throw new InvalidArgumentError('Expected a size such as 10MB, 500k or 2048 (bytes).');
  return bytes;
}
