import { bodies } from '../../arbitraries/part1.js';
import { propertyChecks } from './property-checks.js';

propertyChecks('part1', bodies);
