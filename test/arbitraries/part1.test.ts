import { bodies } from '../../arbitraries/part1.js';
import { generatorChecks } from './generator-checks.js';

generatorChecks('part1', bodies, {
  prefixed: [
    ['requests/database-create', 'label'],
    ['requests/database-snapshot-create', 'label'],
    ['requests/oauth-client-create', 'label'],
  ],
});
