import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const TESTS = ['test/**/*.test.ts', 'test/**/*.test.tsx'];

/**
 * Test files that need a module registry of their own: they mock a module (`vi.mock`) or test what
 * happens on a module's first load. test/vitest-config.test.ts checks that every file mocking a module
 * is listed here.
 */
export const ISOLATED = [
  'test/run/branch-checkpoints-durable.test.ts',
  // The markdown renderer is loaded once per process, on first use: the test watches that first load.
  'test/tui/use-markdown.test.tsx',
];

// Why, and what it asks of a test file: docs/decisions/0022-scheduling-tests-run-on-fake-timers.md.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: 'forks',
    // One worker more than there are cores: end-to-end files spend part of their time waiting on a child
    // process or a tool command's `sleep`, and a third worker uses the core that leaves idle.
    maxWorkers: availableParallelism() + 1,
    // A temp folder of the run's own, checked empty at the end (listed first: torn down last, after
    // the PostgreSQL cluster that lives in it); one PostgreSQL cluster for the whole run, started when
    // a test file first asks for it.
    globalSetup: ['test/helpers/private-tmpdir.ts', 'test/helpers/postgres-broker.ts'],
    projects: [
      {
        extends: true,
        // A worker process runs file after file with the modules it already loaded: starting a process
        // and importing the engine for each of 300 files was a third of the suite's CPU time.
        test: { name: 'shared', include: TESTS, exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
