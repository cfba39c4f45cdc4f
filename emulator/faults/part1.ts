// Faults breaking part 1's rules: common rules (auth, scopes, errors, pagination, envelopes), managed databases,
// account.
import { defineFaults } from './define.js';

export const part1Faults = defineFaults({});
