import { postgresBin } from '../../bench/lib/postgres-cluster.mjs';

// The cluster itself is started by the benchmarks' helper, so tests and benchmarks share one harness.
export { type PostgresCluster, startPostgresCluster } from '../../bench/lib/postgres-cluster.mjs';

// CI installs Debian's postgresql and sets ATTRACTOR_PG_TESTS=required, so there a test needing it fails
// instead of being left out; a developer machine without PostgreSQL runs the rest of the suite.
export const PG_REQUIRED = process.env['ATTRACTOR_PG_TESTS'] === 'required';
export const PG_AVAILABLE = postgresBin() !== undefined;
