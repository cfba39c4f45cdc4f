// Ids whose type as returned the documents do not give, while their paths take integers (document 3, Endpoints:
// "`{domainId}`, `{recordId}`, `{clientId}`, `{firewallId}`, `{deviceId}` are integers"; Firewall: "Firewall fields
// beyond those above (such as id) as returned: not shown."; likewise a record's, a monitoring client's and a device's
// fields): a server may show the id its paths take as 17 as 17 or as "17".

/** The integer an id stands for, shown as a safe non-negative integer or as a string of its digits; else undefined. */
export function integerId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/** Whether two ids as shown name the same resource: equal, or the same integer (17 and "17"). */
export function sameId(shown: unknown, id: unknown): boolean {
  const integer = integerId(shown);
  return (shown !== undefined && shown === id) || (integer !== undefined && integer === integerId(id));
}
