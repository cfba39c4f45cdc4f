import type { BodyContext } from './types.js';

/** A context for the self-tests of the generators (shaped like the reference emulator's seed). */
export const SAMPLE_CONTEXT: BodyContext = {
  region: 'us-east',
  vlanRegion: 'us-east',
  instanceType: 'g6-standard-1',
  largerInstanceType: 'g6-standard-2',
  publicImage: 'compute/debian12',
  databaseEngine: 'mysql/8.0.30',
  databaseNodeType: 'g6-dedicated-2',
  computeIds: [101, 102],
  diskId: 201,
  configId: 301,
  backupId: 401,
  domainId: 501,
  ipv4s: ['203.0.113.10', '203.0.113.11'],
  slaac: '2600:3c00::f03c:91ff:fe00:65',
  labelPrefix: 'cf7a3-',
};

/**
 * Whether the context holds `member`: a run that could not make a profile or a backup on its target (none showed in
 * time) leaves their members out, and a generator that has bodies without them gives only those.
 */
export const holds = (context: BodyContext, member: keyof BodyContext): boolean => member in context;
