// The emulator's internal contract between its core (server, auth, store, clock, events, pagination) and its
// area modules (one per group of the API documents). The emulator never imports the suite's schemas, rules,
// arbitraries, specs or harness: it is written from the documents on its own.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How an endpoint authenticates, as in the inventory: token, none, optional (public images), not-shown. */
export type AuthKind = 'token' | 'none' | 'optional' | 'not-shown';

/** Global grants of a user (document 1 "Authentication" 5; document 3 monitor plan). */
interface GlobalGrants {
  add_computes?: boolean;
  add_monitor?: boolean;
  monitor_subscription?: boolean;
  account_access?: 'read_only' | 'read_write' | null;
  [grant: string]: unknown;
}

/** Per-entity grants of a restricted user: kind → entity id → level. Unrestricted users have every grant. */
export type EntityGrants = Partial<
  Record<'compute' | 'domain' | 'volume' | 'balancer' | 'image' | 'firewall' | 'database', Record<string, 'read_only' | 'read_write'>>
>;

export interface Principal {
  token: string;
  username: string;
  /** '*' for a personal access token with full access; otherwise OAuth scopes like `domains:read_only`. */
  scopes: '*' | string[];
  restricted: boolean;
  grants: { global: GlobalGrants; entities: EntityGrants };
  /** Set for tokens issued to an OAuth client: deleting the client invalidates them. */
  oauthClientId?: string;
}

export interface RequestContext {
  method: Method;
  /** Route path as in the inventory, e.g. `/v4/domains/{domainId}`. */
  route: string;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** Parsed JSON body (undefined when none was sent). */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** null only on endpoints whose auth is none/optional and no token was sent. */
  principal: Principal | null;
  /** Remote IPv4 address of the caller (for `[remote_addr]` records). */
  remoteAddress: string;
  /** Base URL the caller used, e.g. `http://127.0.0.1:4010` (for upload_to and instance_uri style links). */
  baseUrl: string;
  store: import('./store.js').Store;
}

/** The context a seed makes its objects in, as no caller (only the store is read). */
export function seedContext(store: import('./store.js').Store): RequestContext {
  return { store, principal: null } as unknown as RequestContext;
}

/** What a handler returns: a JSON body sent with status 200, or an explicit reply. */
type HandlerResult = unknown | Reply;

export class Reply {
  constructor(
    public status: number,
    public body: unknown,
    public headers: Record<string, string> = {},
  ) {}
}

export interface Route {
  method: Method;
  /** Exactly as in the inventory (`/v4/...` or `/v4beta/...`), with `{param}` placeholders. */
  path: string;
  /**
   * A route serving an inventory endpoint in another form (an image id with its slash as it is): that endpoint's `path`,
   * whose faults (endpoint-faults.ts) it then carries too.
   */
  serves?: string;
  /** OAuth scopes required, all of them (empty for auth none). `x:read_write` also satisfies `x:read_only`. */
  scopes: string[];
  auth: AuthKind;
  /** Managed databases and login history: restricted users are refused whatever their scopes. */
  unrestrictedOnly?: boolean;
  handler: (ctx: RequestContext) => HandlerResult | Promise<HandlerResult>;
}

/** An area module: its routes, its state (created on reset), its seed data and its time-driven behaviour. */
export interface Area {
  name: string;
  routes: Route[];
  /** Called on every new store before any seed: subscribes to the signals other areas send (see Store.send). */
  listen?: (store: import('./store.js').Store) => void;
  /** Called on start and on every reset, after the core's own seed, in the order areas are listed. */
  seed?: (store: import('./store.js').Store) => void;
}

/** Thrown by handlers and core helpers; the core answers it with the documented error body. */
export class ApiError extends Error {
  constructor(
    public status: number,
    public reason: string,
    public field: string | null = null,
    /** The documents name this status (the sixth concurrent clone's 400): no variation changes it. */
    public documented = false,
  ) {
    // An answer, not a bug: no stack trace is captured (thousands of refusals a run, each paying for one).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(reason);
    Error.stackTraceLimit = stackTraceLimit;
  }
}
