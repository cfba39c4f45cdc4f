import { bodies } from '../../arbitraries/part1.js';
import { generatorChecks } from './generator-checks.js';

generatorChecks('part1', bodies, {
  exempt: {
    // reported only for active_promotions.*.expire_dt, a member the account update bodies leave out (what updating
    // promotions does is not shown); date-times are judged on every response that carries one
    'P1.conventions.date-time': 'only the account update reports it, through active_promotions, which no body sends',
  },
  prefixed: [
    ['requests/database-create', 'label'],
    ['requests/database-snapshot-create', 'label'],
    ['requests/oauth-client-create', 'label'],
  ],
});
