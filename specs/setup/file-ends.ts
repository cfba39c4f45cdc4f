// Every spec file marks its end in the run's folder, so that a request that must come after every other request of
// the run (harness/run-order.ts) knows when it may be sent.
import { afterAll, expect } from 'vitest';
import { markFileEnded } from '../../harness/run-order.js';
import { target } from '../../harness/target.js';

afterAll(() => markFileEnded(target().info.config, expect.getState().testPath!));
