import { samples as part1, cases as part1Cases } from './samples/part1.samples.js';
import { samples as part2, cases as part2Cases } from './samples/part2.samples.js';
import { samples as part3, cases as part3Cases } from './samples/part3.samples.js';

export const samples: Record<string, unknown[]> = { ...part1, ...part2, ...part3 };
export const cases = [...part1Cases, ...part2Cases, ...part3Cases];
