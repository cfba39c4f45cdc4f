// A command used wrongly (bad flags, unreadable input): the command says why and exits 2. A module of its own, so
// that every command can throw it without loading what another command needs.
export class UsageError extends Error {}
