import { bodies } from '../../arbitraries/part3.js';
import { propertyChecks } from './property-checks.js';

propertyChecks('part3', bodies);
