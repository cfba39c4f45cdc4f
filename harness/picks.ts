// What a fixture taken from a catalogue list is chosen by: what the documents say about the list's items, never their
// position.
type Json = Record<string, unknown>;

/** A MySQL engine: its name says MySQL (the id is `<engine>/<version>`). */
export const isMysqlEngine = (item: Json): boolean => /^mysql$/i.test(String(item.engine)) || /^mysql\//i.test(String(item.id));

/** A node type a MySQL cluster can use: not deprecated ("no longer available when true"), and priced for MySQL when it lists its engines. */
export const mysqlNodeType = (item: Json): boolean =>
  item.deprecated !== true && (typeof item.engines !== 'object' || item.engines === null || Object.keys(item.engines).some((name) => /mysql/i.test(name)));

/**
 * A node type priced for MySQL clusters of both 1 and 3 nodes (the `quantity` of its MySQL prices): which types offer
 * which cluster sizes is not shown, and generated bodies ask for either.
 */
export function ofEveryClusterSize(item: Json): boolean {
  const engines = typeof item.engines === 'object' && item.engines !== null ? Object.entries(item.engines) : [];
  const prices = engines.flatMap(([name, offers]) => (/mysql/i.test(name) && Array.isArray(offers) ? (offers as Array<Json | null>) : []));
  const quantities = new Set(prices.map((price) => price?.quantity));
  return quantities.has(1) && quantities.has(3);
}
