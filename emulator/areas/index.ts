import type { Area } from '../core/types.js';
import { area as account } from './account/index.js';
import { area as databases } from './databases/index.js';
import { area as compute } from './compute/index.js';
import { area as images } from './images.js';
import { area as tags } from './tags.js';
import { area as domains } from './domains/index.js';
import { area as monitor } from './monitor.js';
import { area as firewalls } from './firewalls/index.js';
import { area as ips } from './ips.js';

/** Every area; seeds run in this order (an area that needs another area's seed data can schedule its seed step at `now`). */
export const areas: Area[] = [account, databases, compute, images, tags, domains, monitor, firewalls, ips];
