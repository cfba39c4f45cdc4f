// The hosts a cluster is given once provisioning completes (document 1, Managed database (cluster): "hosts | object |
// `primary` (string), `secondary` (string); assigned after provisioning completes").
import type { Store } from '../../core/store.js';
import { faulty } from '../../faults/index.js';
import type { Cluster } from './model.js';

/** Assigns both hosts (a single-node cluster gets a secondary too); the fault leaves a three-node cluster's secondary null. */
export function assignHosts(store: Store, c: Cluster): void {
  const secondary = `lin-${c.id}-${c.engine}-primary-private.servers.${c.region}.db.example.net`;
  c.hosts = {
    primary: `lin-${c.id}-${c.engine}-primary.servers.${c.region}.db.example.net`,
    secondary: c.cluster_size === 3 && faulty(store, 'P1.database.hosts.assigned-after-provisioning~secondary') ? null : secondary,
  };
}
