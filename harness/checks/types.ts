/** A problem found by a semantic check: the rule it breaks and where (a JSON pointer relative to the checked value). */
export interface SemanticProblem {
  rule: string;
  message: string;
  path?: string;
}

/** A check of a constraint JSON Schema cannot express. Runs only on values that are already of the right type. */
export type SemanticCheck = (value: unknown) => SemanticProblem[];
