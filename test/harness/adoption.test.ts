// What a spec file's fixtures count as theirs: a resource they track and have not deleted. A resource listed under an
// id the file deleted is another (the target gave the id again, which the documents do not exclude): taking it for the
// deleted one left a clone's instance, made under a reused id, untracked on the target (variation matrix, seed 20261121).
import { describe, expect, it } from 'vitest';
import { Adoption } from '../../harness/adoption.js';
import { CleanupLedger } from '../../harness/cleanup.js';
import type { ResourceKind } from '../../harness/resources.js';
import { tempDir } from '../safety/support.js';

class FileAdoption extends Adoption {
  protected readonly ledger = new CleanupLedger(tempDir('adoption'), 'adopt1', 'part2-compute');

  track(kind: ResourceKind, id: string | number): void {
    const deletePath = `/v4/compute/instances/${id}`;
    this.noteTracked(kind, id, deletePath);
    this.ledger.record({ kind, deletePath });
  }

  deleted(id: number): void {
    this.ledger.markDeleted(`/v4/compute/instances/${id}`);
  }
}

describe('the resources a spec file tracks', () => {
  it('are those it made and has not deleted: an id it deleted may be given to another resource', () => {
    const file = new FileAdoption();
    expect(file.tracks('instance', 2)).toBe(false);
    file.track('instance', 2);
    expect(file.tracks('instance', 2)).toBe(true);
    expect(file.tracks('instance', '2')).toBe(true);
    expect(file.tracks('domain', 2)).toBe(false);
    file.deleted(2);
    expect(file.tracks('instance', 2)).toBe(false);
    file.track('instance', 2);
    expect(file.tracks('instance', 2)).toBe(true);
  });
});
