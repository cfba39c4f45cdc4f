import type fc from 'fast-check';

/**
 * What a generated body may refer to on the target: ids the harness discovers or creates before generating.
 * Against the reference emulator these are its seed values; against a real server, discovered or configured.
 */
export interface BodyContext {
  /** A region of the target; `vlanRegion` supports VLANs (null: none named, and valid bodies name no VLAN). */
  region: string;
  vlanRegion: string | null;
  /** An instance type id, and a larger one (for resize). */
  instanceType: string;
  largerInstanceType: string;
  /** An `available` public image id (`compute/…`). */
  publicImage: string;
  /** A managed database engine id (`<engine>/<version>`) and node type id. */
  databaseEngine: string;
  databaseNodeType: string;
  /** Instances created by the run (the caller has read_write on them); at least two. */
  computeIds: number[];
  /** A disk id of the first instance (image capture), a config id of it (boot, clone). */
  diskId: number;
  configId: number;
  /** A backup id of the first instance (create from backup, restore). */
  backupId: number;
  /** A domain id created by the run. */
  domainId: number;
  /** IPv4 addresses of the run's instances, and the SLAAC address of the first one. */
  ipv4s: string[];
  slaac: string;
  /** A prefix for every label the run creates, e.g. `cf7a3-`, so a sweep can find them. */
  labelPrefix: string;
}

/** One way a body breaks the documents: the rule it breaks, and the member at fault. */
export interface Violation {
  rule: string;
  /** Dot path of the offending member (`rules.inbound.0.ports`), or null when no single member is at fault. */
  field: string | null;
  /**
   * Other members an error may name instead, where two clash and which is at fault is not shown, or where what the
   * context holds may be refused first (a function of it).
   */
  orFields?: string[] | ((context: BodyContext) => string[]);
  /** `schema`: the request schema rejects it too (unit-tested). `server`: only the server can judge it (strength, existence, uniqueness). */
  judgedBy: 'schema' | 'server';
  /**
   * The member (dot path) the body gives "" where it is optional and cannot be empty: a server may refuse it or read it
   * as not given, so what is judged is that no answer shows the member as "".
   */
  blankMember?: string;
  arbitrary: (context: BodyContext) => fc.Arbitrary<Record<string, unknown>>;
}

/** The generators for one request body. */
export interface BodyArbitraries {
  /** Request schema name, e.g. `requests/domain-create`. */
  schema: string;
  /** Valid bodies: every optional member sometimes present, every enum value, boundary lengths. */
  valid: (context: BodyContext) => fc.Arbitrary<Record<string, unknown>>;
  /** One entry per constraint of the body (each breaks exactly that constraint). */
  violations: Violation[];
}
