import type { Check, DeclaredRule, Need } from './types.js';

type Declare = (id: string, section: string, text: string, endpoints: readonly string[], check?: Check, needs?: Need[]) => DeclaredRule;

/** The two helpers every document's ledger (rules/part<n>.ts) declares its rules with. */
export function declareRules(part: DeclaredRule['part']): { must: Declare; should: Declare } {
  const declare =
    (level: DeclaredRule['level']): Declare =>
    (id, section, text, endpoints, check = 'schema', needs = ['none']) => ({ id, part, section, level, rule: text, endpoints: [...endpoints], needs, check });
  return { must: declare('MUST'), should: declare('SHOULD') };
}
