export interface PostgresCluster {
  /** `postgres://…` for the cluster's `postgres` database over its unix socket. */
  url: string;
  port: number;
  socketDir: string;
  /** A fresh, empty database of this cluster: its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}
export function postgresBin(): string | undefined;
export function startPostgresCluster(): Promise<PostgresCluster>;
