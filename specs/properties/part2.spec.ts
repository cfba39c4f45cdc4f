import { bodies } from '../../arbitraries/part2.js';
import { propertyChecks } from './property-checks.js';

propertyChecks('part2', bodies);
