// What tells a maintenance entity is not a compute instance (specs/part1/maintenance-support.ts). An id is not a kind:
// a server listing its database clusters' maintenance names cluster 1 beside instance 1, so the instance view of the
// id answering 2xx tells nothing once the entity's url names a cluster's path (before, it passed such an entity).
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../harness/http.js';
import { notAnInstance } from '../../specs/part1/maintenance-support.js';

const view = (status: number): Exchange => ({
  method: 'GET',
  path: '/v4/compute/instances/1',
  requestHeaders: {},
  status,
  responseHeaders: {},
  contentType: 'application/json',
  body: {},
  notJson: false,
  truncated: false,
  durationMs: 1,
});
const entity = (type: string, url: string) => ({ id: 1, label: 'one', type, url });
const judged = (e: Record<string, unknown>, status: number, types: unknown[] = []) =>
  notAnInstance({ entity: e, view: view(status) }, new Set(types), () => {});

describe('a maintenance entity', () => {
  it("naming a database cluster's path is no instance, though an instance of its id exists", () => {
    expect(judged(entity('database', '/v4/databases/mysql/instances/1'), 200)).toMatch(/url names \/v4\/databases\/mysql\/instances\/\{/);
  });

  it("naming an instance's path, or a path the documents do not give, is an instance when its view answers", () => {
    expect(judged(entity('linode', '/v4/compute/instances/1'), 200)).toBeUndefined();
    expect(judged(entity('linode', 'https://cloud.example/instances/1'), 200)).toBeUndefined();
  });

  it('gone, is judged by a type the service gives its instance entities', () => {
    expect(judged(entity('database', '/somewhere/1'), 404, ['linode'])).toMatch(/type "database"/);
    expect(judged(entity('linode', '/somewhere/1'), 404, ['linode'])).toBeUndefined();
  });
});
