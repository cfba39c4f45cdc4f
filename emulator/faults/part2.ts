// Faults breaking part 2's rules: compute instances, images, tags.
import { defineFaults } from './define.js';
export const part2Faults = defineFaults({});
