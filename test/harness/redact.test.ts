// The one redaction pass: every form of a registered secret is replaced, in text and in JSON data, before any cut.
import { describe, expect, it } from 'vitest';
import { capDepth, MAX_JSON_DEPTH } from '../../harness/http.js';
import { describeExchange } from '../../harness/error-bodies.js';
import { REDACTED, carriesSecret, redact, redactText, registerSecret, registerUrlCredentials, withoutCredentials } from '../../harness/redact.js';
import type { Exchange } from '../../harness/http.js';

const TOKEN = 'redact-unit-Tok3n/+secret';
registerSecret(TOKEN);
registerUrlCredentials('https://deploy:s3cr3t-Pa55@api.example.com/v4');

/** Every form the issue names, each embedded in ordinary text. */
export function formsOf(secret: string): Record<string, string> {
  const bytes = Buffer.from(secret);
  return {
    raw: secret,
    'URL-encoded': encodeURIComponent(secret),
    'URL-encoded, lower case': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    'form-encoded': new URLSearchParams({ s: secret }).toString().slice(2),
    base64: bytes.toString('base64'),
    'base64 without padding': bytes.toString('base64').replace(/=+$/, ''),
    base64url: bytes.toString('base64url'),
    hex: bytes.toString('hex'),
    HEX: bytes.toString('hex').toUpperCase(),
    // Inside a longer base64 blob, at each alignment.
    ...Object.fromEntries(
      [1, 2, 3, 4].map((shift) => [
        `base64 inside a blob, shifted ${shift}`,
        Buffer.concat([Buffer.from('x'.repeat(shift)), bytes, Buffer.from('tail')]).toString('base64'),
      ]),
    ),
    'basic authentication': Buffer.from(`user:${secret}`).toString('base64'),
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
  };
}

describe('redactText', () => {
  for (const [secret, name] of [
    [TOKEN, 'a token'],
    ['s3cr3t-Pa55', 'a base-URL password'],
  ] as const)
    for (const [form, text] of Object.entries(formsOf(secret)))
      it(`replaces ${name} in its ${form} form`, () => {
        const redacted = redactText(`before ${text} after`);
        expect(redacted).toContain(REDACTED);
        expect(carriesSecret(redacted)).toBe(false);
        // What is left of a base64 blob decodes to no part of the secret longer than a few characters.
        const decoded = Buffer.from(redacted.replace(/[^A-Za-z0-9+/=_-]/g, ''), 'base64').toString('latin1');
        expect(decoded).not.toContain(secret.slice(0, 6));
        expect(redacted).not.toContain(secret);
      });

  it('replaces every form of each of many secrets sharing their beginning (a mutation batch: 64 targets)', () => {
    const tokens = Array.from({ length: 64 }, (_, index) => `batch-target-${String(index).padStart(2, '0')}-${'f'.repeat(20)}`);
    for (const token of tokens) registerSecret(token);
    for (const token of [tokens[0]!, tokens[37]!, tokens[63]!])
      for (const [form, text] of Object.entries(formsOf(token))) expect(redactText(`before ${text} after`), form).toContain(REDACTED);
    expect(redactText('batch-target-64 is no secret')).toBe('batch-target-64 is no secret');
  });

  it('replaces a secret registered after text was redacted (the patterns are built again)', () => {
    const later = 'registered-later-token-7Qz';
    expect(redactText(`before ${later} after`)).toBe(`before ${later} after`);
    registerSecret(later);
    expect(redactText(`before ${later} after`)).toBe(`before ${REDACTED} after`);
    expect(redactText(`before ${TOKEN} after`)).toBe(`before ${REDACTED} after`);
  });

  it('leaves other text alone', () => {
    expect(redactText('conformance: run r1 against https://api.example.com (seed 3)')).toBe('conformance: run r1 against https://api.example.com (seed 3)');
  });
});

describe('redact', () => {
  it('copies JSON data with every string and member name redacted', () => {
    const value = { [TOKEN]: [1, `Bearer ${TOKEN}`, { location: `/v4/domains/${encodeURIComponent(TOKEN)}` }], n: null };
    expect(redact(value)).toEqual({ [REDACTED]: [1, `Bearer ${REDACTED}`, { location: `/v4/domains/${REDACTED}` }], n: null });
    expect(value[TOKEN][1]).toBe(`Bearer ${TOKEN}`);
  });
});

describe('check messages', () => {
  it('redact an echoed reason before cutting it to 160 characters (no half token)', () => {
    const reason = `${'x'.repeat(130)} invalid token: Bearer ${TOKEN}`;
    const exchange = { status: 401, body: { errors: [{ reason }] } } as unknown as Exchange;
    const message = describeExchange(exchange);
    expect(message).not.toContain(TOKEN.slice(0, 6));
    expect(message).toContain('invalid token: Bearer [RED');
  });
});

describe('base URLs', () => {
  it('are shown without their credentials', () => {
    expect(withoutCredentials('https://deploy:s3cr3t-Pa55@api.example.com/v4/')).toBe('https://api.example.com/v4');
  });
});

describe('a response nested deeper than any reader can follow', () => {
  it('keeps its first levels and a note in place of the rest', () => {
    const depth = 5000;
    const body = capDepth(JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`));
    const text = JSON.stringify(body);
    expect(text).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(text.match(/\[(?!nested)/g)!.length).toBe(MAX_JSON_DEPTH);
    expect(JSON.stringify(redact(body))).toBe(text);
  });
});
