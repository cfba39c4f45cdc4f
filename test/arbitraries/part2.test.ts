// Self-tests of the document 2 body generators against the request schemas.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import { label, labelBadBeginEnd, labelBadChar, labelDoubledSeparator } from '../../arbitraries/generators/labels.js';
import { isStrongPassword, strongPassword, weakPassword } from '../../arbitraries/generators/passwords.js';
import { bodies } from '../../arbitraries/part2.js';
import { sshPublicKey } from '../../arbitraries/generators/compute.js';
import { generatorChecks } from './generator-checks.js';
import type { BodyContext } from '../../arbitraries/types.js';

/**
 * The sample, a target whose VLAN region differs and whose prefix holds separators other than a dash, and a real
 * target whose VLAN region was not named.
 */
const NO_VLAN_REGION: BodyContext = { ...SAMPLE_CONTEXT, vlanRegion: null };
const CONTEXTS: BodyContext[] = [
  SAMPLE_CONTEXT,
  { ...SAMPLE_CONTEXT, region: 'us-west', vlanRegion: 'eu-central', labelPrefix: 'run_42.', computeIds: [7, 8, 9] },
  NO_VLAN_REGION,
];

/**
 * Type-level shape rules are left to the schema self-tests and to the wrong-type bodies the property specs derive
 * from the schemas: breaking one means sending a value of another JSON type, which says nothing about the
 * document's constraints.
 */
const SHAPE = 'a value of another JSON type; covered by the schema self-tests and the property specs';

generatorChecks('part2', bodies, {
  contexts: CONTEXTS,
  exempt: Object.fromEntries(
    [
      'P2.instance-create.types',
      'P2.instance-update.types',
      'P2.instance-clone.types',
      'P2.instance-snapshot-create.types',
      'P2.backup-restore.types',
      'P2.instance-boot.types',
      'P2.instance-rescue.types',
      'P2.instance-resize.types',
      'P2.config-create.types',
      'P2.config-update.types',
      'P2.image-capture.types',
      'P2.image-upload.types',
      'P2.image-update.types',
      'P2.tag-create.types',
      'P2.interfaces.types',
      'P2.device-map.types',
    ].map((rule) => [rule, SHAPE]),
  ),
  prefixed: [
    ['requests/instance-create', 'label'],
    ['requests/config-create', 'label'],
  ],
});

describe('document 2 shared generators', () => {
  /** Stricter than the schema: valid labels avoid mixed separator pairs too. */
  const INSTANCE_LABEL = /^(?![-_.])(?!.*[-_.]$)(?!.*[-_.]{2})[A-Za-z0-9_.-]{3,64}$/;

  it('labels follow the instance label rules and carry the prefix when it fits', () => {
    fc.assert(
      fc.property(label(3, 64, 'cf7a3-'), (text) => {
        expect(text).toMatch(INSTANCE_LABEL);
        if (text.length > 'cf7a3-'.length) expect(text.startsWith('cf7a3-')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('each bad label keeps its length and the prefix inside it', () => {
    for (const bad of [labelBadChar, labelBadBeginEnd, labelDoubledSeparator]) {
      fc.assert(
        fc.property(bad(3, 32, 'cf7a3-'), (text) => {
          expect(text.length).toBeGreaterThanOrEqual(3);
          expect(text.length).toBeLessThanOrEqual(32);
          expect(text).toContain('cf7a3-');
          expect(text).not.toMatch(INSTANCE_LABEL);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('SSH keys carry an Ed25519 key that is a point on the curve (half of all random 32 bytes are not)', () => {
    const P = 2n ** 255n - 19n;
    const power = (base: bigint, exponent: bigint): bigint => {
      let result = 1n;
      for (let b = ((base % P) + P) % P, e = exponent; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) result = (result * b) % P;
      return result;
    };
    const D = (((-121665n * power(121666n, P - 2n)) % P) + P) % P;
    /** RFC 8032 5.1.3: y below p, and (y² - 1) / (d·y² + 1) a square mod p (0 only with the sign bit clear). */
    const onCurve = (key: Buffer) => {
      const encoded = BigInt(`0x${Buffer.from(key).reverse().toString('hex')}`);
      const [y, sign] = [encoded & ((1n << 255n) - 1n), encoded >> 255n];
      if (y >= P) return false;
      const x2 = ((((y * y - 1n) * power(D * y * y + 1n, P - 2n)) % P) + P) % P;
      return x2 === 0n ? sign === 0n : power(x2, (P - 1n) / 2n) === 1n;
    };
    fc.assert(
      fc.property(sshPublicKey(), (line) => {
        const [kind, blob] = line.split(' ');
        const bytes = Buffer.from(blob!, 'base64');
        expect(kind).toBe('ssh-ed25519');
        expect(bytes.readUInt32BE(15)).toBe(32);
        expect(onCurve(bytes.subarray(19))).toBe(true);
      }),
      { numRuns: 100 },
    );
    expect(onCurve(Buffer.alloc(32, 0xff))).toBe(false);
  });

  it('strong passwords pass the strength rule and weak ones fail it, all 7..128 long', () => {
    const inBounds = (text: string) => text.length >= 7 && text.length <= 128;
    fc.assert(
      fc.property(strongPassword(), (p) => inBounds(p) && isStrongPassword(p)),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(weakPassword(), (p) => inBounds(p) && !isStrongPassword(p)),
      { numRuns: 200 },
    );
  });
});

describe('document 2 bodies without a VLAN region', () => {
  it("no valid body names a vlan interface, and an instance create goes to the run's region", () => {
    for (const [key, { valid }] of Object.entries(bodies))
      fc.assert(
        fc.property(valid(NO_VLAN_REGION), (body) => {
          expect(JSON.stringify(body), key).not.toContain('"vlan"');
          if ('region' in body) expect(body.region, key).toBe(NO_VLAN_REGION.region);
        }),
        { numRuns: 100 },
      );
  });
});
