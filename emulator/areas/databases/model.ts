// What the databases area stores: clusters and their backups.
import type { Store } from '../../core/store.js';

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
