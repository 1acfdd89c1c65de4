import { expect } from 'vitest';
import { probeSandbox } from '../../src/shared/sandbox/probe-sandbox.js';

/**
 * CI installs bubblewrap and sets ATTRACTOR_SANDBOX_TESTS=required, so there a sandbox test fails
 * instead of being left out when this machine cannot make a sandbox.
 */
export const SANDBOX_REQUIRED = process.env['ATTRACTOR_SANDBOX_TESTS'] === 'required';
const probe = probeSandbox();
export const SANDBOX_AVAILABLE = probe.available;

/** The bubblewrap the probe found; fails the test saying why when there is none. */
export function requireBwrap(): string {
  expect(probe.available ? '' : probe.reason, 'no sandbox on this machine').toBe('');
  return probe.available ? probe.bwrap : '';
}
