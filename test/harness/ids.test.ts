// Ids whose type as returned is not shown: 17 and "17" name the resource the path 17 does, nothing else does.
import { describe, expect, it } from 'vitest';
import { integerId, sameId } from '../../harness/ids.js';

describe('integerId', () => {
  it.each([
    [17, 17],
    ['17', 17],
    [0, 0],
    ['', undefined],
    ['17a', undefined],
    [' 17', undefined],
    ['-1', undefined],
    [-1, undefined],
    [1.5, undefined],
    [2 ** 53, undefined],
    ['9007199254740993', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%j → %j', (shown, id) => {
    expect(integerId(shown)).toBe(id);
  });
});

describe('sameId', () => {
  it('takes 17 and "17" for one id, a string id only as itself, and never two missing ids', () => {
    expect(sameId('17', 17)).toBe(true);
    expect(sameId(17, '17')).toBe(true);
    expect(sameId('private/27', 'private/27')).toBe(true);
    expect(sameId('17', 18)).toBe(false);
    expect(sameId(undefined, undefined)).toBe(false);
  });
});
