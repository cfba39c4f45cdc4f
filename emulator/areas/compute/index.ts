// Compute instances (document 2): instances, their disks (internal), configuration profiles, backups, boot,
// shutdown, rescue, resize, clone, statistics, transfer, attached volumes, kernels. Volumes and load balancers
// are only reachable through tags and the instance volumes list, so they are seeded and kept here.
//
// Choices where the document is silent:
// - An instance created without a label is labelled `<region>-<id>`.
// - Root password strength: at least three of lower case letters, upper case letters, digits and symbols.
// - An instance is deleted when asked, whatever runs on it (a clone from or to it, a shutdown).
import type { Area, Route } from '../../core/types.js';
import { bootHandler, rescueHandler, resizeHandler, shutdownHandler } from './actions.js';
import { backupsCancelHandler, backupsEnableHandler, backupsListHandler, backupViewHandler, restoreHandler, snapshotHandler } from './backups.js';
import { cloneHandler } from './clone.js';
import { configCreateHandler, configDeleteHandler, configsListHandler, configUpdateHandler, configViewHandler } from './configs.js';
import { createHandler, deleteHandler, listHandler, updateHandler, viewHandler } from './instances.js';
import { kernelsHandler, kernelViewHandler } from './kernels.js';
import { seed } from './seed.js';
import { statsHandler, statsMonthHandler, transferHandler, transferMonthHandler, volumesHandler } from './usage.js';

const I = '/v4/compute/instances/{computeId}';
const rw = ['compute:read_write'];
const ro = ['compute:read_only'];
const r = (method: Route['method'], path: string, scopes: string[], handler: Route['handler'], auth: Route['auth'] = 'token'): Route => ({
  method,
  path,
  scopes,
  auth,
  handler,
});

export const area: Area = {
  name: 'compute',
  seed,
  routes: [
    r('GET', '/v4/compute/instances', ro, listHandler),
    r('POST', '/v4/compute/instances', rw, createHandler),
    r('GET', I, ro, viewHandler),
    r('PUT', I, rw, updateHandler),
    r('DELETE', I, rw, deleteHandler),
    r('GET', `${I}/backups`, ro, backupsListHandler),
    r('POST', `${I}/backups`, rw, snapshotHandler),
    r('POST', `${I}/backups/cancel`, rw, backupsCancelHandler),
    r('POST', `${I}/backups/enable`, rw, backupsEnableHandler),
    r('GET', `${I}/backups/{backupId}`, ro, backupViewHandler),
    r('POST', `${I}/backups/{backupId}/restore`, rw, restoreHandler),
    r('POST', `${I}/boot`, rw, bootHandler),
    r('POST', `${I}/clone`, rw, cloneHandler),
    r('GET', `${I}/configs`, ro, configsListHandler),
    r('POST', `${I}/configs`, rw, configCreateHandler),
    r('GET', `${I}/configs/{configId}`, ro, configViewHandler),
    r('PUT', `${I}/configs/{configId}`, rw, configUpdateHandler),
    r('DELETE', `${I}/configs/{configId}`, rw, configDeleteHandler),
    r('POST', `${I}/rescue`, rw, rescueHandler),
    r('POST', `${I}/resize`, rw, resizeHandler),
    r('POST', `${I}/shutdown`, rw, shutdownHandler),
    r('GET', `${I}/stats`, ro, statsHandler),
    r('GET', `${I}/stats/{year}/{month}`, ro, statsMonthHandler),
    r('GET', `${I}/transfer`, ro, transferHandler),
    r('GET', `${I}/transfer/{year}/{month}`, ro, transferMonthHandler),
    r('GET', `${I}/volumes`, ro, volumesHandler),
    r('GET', '/v4/compute/kernels', [], kernelsHandler, 'none'),
    r('GET', '/v4/compute/kernels/{kernelId}', [], kernelViewHandler, 'none'),
  ],
};
