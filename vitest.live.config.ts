import { defineConfig } from 'vitest/config';

// `npm run test:live`: the smoke tests against real providers (test/live/*.live.ts); `npm test` never runs
// them (its config includes only *.test.ts files).
export default defineConfig({
  test: {
    include: ['test/live/**/*.live.ts'],
    testTimeout: 300_000,
    pool: 'forks',
  },
});
