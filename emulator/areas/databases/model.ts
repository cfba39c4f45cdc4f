// What the databases area stores: clusters and their backups.
import type { Store } from '../../core/store.js';
import { varied } from '../../variations/index.js';

export type Status = 'provisioning' | 'active' | 'suspending' | 'suspended' | 'resuming' | 'restoring' | 'failed' | 'degraded' | 'updating';

export interface Updates {
  frequency: string | null;
  duration: number;
  hour_of_day: number;
  day_of_week: number;
  week_of_month: number;
}

/** Stored cluster: the documented fields plus internal state (password, reset flag, certificate). */
export interface Cluster {
  id: number;
  label: string;
  engine: string;
  version: string;
  region: string;
  type: string;
  cluster_size: number;
  encrypted: boolean;
  replication_type: string;
  ssl_connection: boolean;
  allow_list: string[];
  status: Status;
  hosts: { primary: string | null; secondary: string | null };
  port: number;
  updates: Updates;
  created: string;
  updated: string;
  password: string;
  credentialsReset: boolean;
  caCertificate: string;
}

export interface Backup {
  id: number;
  clusterId: number;
  label: string;
  type: 'snapshot' | 'auto';
  created: string;
}

export const clusters = (store: Store) => store.table<Cluster>('databases.clusters');
export const backups = (store: Store) => store.table<Backup>('databases.backups');

/** Under the variation cluster-delete-shows-a-while, how long a deleted cluster is still shown (simulated time). */
const DELETE_RUNS_MS = 5_000;

/**
 * Deletes the cluster with its backups: at once, or under cluster-delete-shows-a-while once DELETE_RUNS_MS have passed
 * (until then it is viewed and listed as it was, its status unchanged; a DELETE sent again meanwhile answers {} too).
 */
export function deleteCluster(store: Store, c: Cluster): void {
  const remove = (s: Store) => {
    if (clusters(s).get(String(c.id)) !== c) return;
    clusters(s).delete(String(c.id));
    for (const [key, b] of backups(s)) if (b.clusterId === c.id) backups(s).delete(key);
  };
  if (varied(store, 'cluster-delete-shows-a-while')) store.schedule(new Date(store.now().getTime() + DELETE_RUNS_MS), remove);
  else remove(store);
}
