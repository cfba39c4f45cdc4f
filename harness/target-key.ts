// One run may hold the same spec files for several targets (the mutation matrix runs a batch of faults, each against
// its own emulator, in one vitest run): each copy of a spec file is named `<file>?target=<key>`.

/** The spec file run against the target `key`. */
export function fileForTarget(file: string, key: string): string {
  return `${file}?target=${key}`;
}

/** The key a spec file run as `<file>?target=<key>` names ('' for a plain spec file). */
export function targetKeyOf(file: string | undefined): string {
  return /[?&]target=([^&]+)/.exec(file ?? '')?.[1] ?? '';
}

/**
 * What module state remembers of `key` (an id, a path) on the check's target: one process may run the suite against
 * several targets (the matrices, a library user), and each emulator gives the same ids and addresses again.
 */
export function onTarget(c: { target: { info: { baseUrl: string } } }, key: string | number): string {
  return `${c.target.info.baseUrl} ${key}`;
}

/** A name holding `<file>?target=<key>` as it is for the plain spec file: a check's plan key and property seed are the same in every copy. */
export function withoutTargetKey(name: string): string {
  return name.replace(/\?target=[^ >&]+/, '');
}
