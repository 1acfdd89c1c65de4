import { InvalidArgumentError } from 'commander';

/**
 * Commander argument parser for a count flag (`--max-steps 10`). Throwing InvalidArgumentError makes a
 * bad value a usage error (exit 2) with the flag named, like an unknown flag.
 */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError('Expected a positive whole number.');
  return n;
}
