// Quick authoring check of schemas/ and rules/ (the self-tests in test/contract/ check the same and more).
import { auditSchemas } from '../test/contract/audit.js';
import { loadContract } from '../harness/contract.js';
import { ledger } from '../rules/index.js';

const problems = auditSchemas();
const ids = ledger.map((rule) => rule.id);
for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) problems.push(`duplicate rule id ${id}`);
console.log(`${loadContract().names.length} schemas, ${ledger.length} rules`);
if (problems.length) {
  console.log(problems.join('\n'));
  process.exit(1);
}
console.log('ok');
