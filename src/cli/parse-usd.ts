import { InvalidArgumentError } from 'commander';

/**
 * Commander argument parser for an amount of US dollars (`--max-cost 2.50`). Throwing InvalidArgumentError
 * makes a bad value a usage error (exit 2) with the flag named, in every mode (a dry run too), before
 * anything starts.
 */
export function parseUsd(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('Expected a positive number of US dollars.');
  return n;
}
