import { endpointChecks } from './endpoint-checks.js';

endpointChecks('part3');
