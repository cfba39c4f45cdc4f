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

/** A name holding `<file>?target=<key>` as it is for the plain spec file: a check's plan key and property seed are the same in every copy. */
export function withoutTargetKey(name: string): string {
  return name.replace(/\?target=[^ >&]+/, '');
}
