// Authoring audit of schemas/ against the ledger, shared by scripts/lint-contract.ts and the self-tests.
import { CONSTRAINT_KEYWORDS, forEachSubschema, loadContract, semanticChecks } from '../../harness/contract.js';
import { ruleById } from '../../rules/index.js';

type Json = Record<string, unknown>;

/** Every rule id named by a schema node (`x-rule`, `x-rules`), with where. */
export function namedRules(schema: Json): string[] {
  const mapped = Object.values((schema['x-rules'] as Json | undefined) ?? {}).flatMap((value) =>
    typeof value === 'string' ? [value] : Object.values(value as Json),
  );
  return [schema['x-rule'], ...mapped].filter((id): id is string => typeof id === 'string');
}

/** Calls visit on a schema document and every subschema in it. */
export function walkSchema(schema: Json, where: string, visit: (node: Json, where: string) => void): void {
  visit(schema, where);
  forEachSubschema(schema, where, (subschema, at) => walkSchema(subschema, at, visit));
}

export function auditSchemas(): string[] {
  const contract = loadContract();
  const problems: string[] = [];
  for (const name of contract.names) {
    walkSchema(contract.documents.get(name)!, name, (node, where) => {
      for (const id of namedRules(node)) if (!ruleById.has(id)) problems.push(`${where}: unknown rule ${id}`);
      if (CONSTRAINT_KEYWORDS.some((keyword) => keyword in node) && namedRules(node).length === 0) problems.push(`${where}: constraint without a rule`);
      if (typeof node['x-check'] === 'string' && !semanticChecks[node['x-check']]) problems.push(`${where}: unknown x-check ${node['x-check']}`);
    });
    try {
      contract.validator(name);
    } catch (error) {
      problems.push(`${name}: does not compile: ${(error as Error).message}`);
    }
  }
  return [...new Set(problems)];
}
