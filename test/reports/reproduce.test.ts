// The replay command repeats the whole run (target, tokens by name, regions, instance types, control URL,
// consistency window, budgets, destructive and read-only), and the curl command sends the failing exchange again.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../harness/config.js';
import { REDACTED, registerConfigSecrets } from '../../harness/redact.js';
import { COUNTEREXAMPLE_MAX, elided } from '../../harness/property.js';
import type { TokenOwner } from '../../harness/http.js';
import { curlCommand, replayCommand, runCommand } from '../../reports/reproduce.js';
import { runInfoOf } from '../../reports/results.js';
import { exchange } from './sample-results.js';

const RULE = 'P3.firewall.rules.max-25';
const FILE = 'specs/properties/part3.spec.ts';

describe('the replay command', () => {
  it('repeats every setting of a staging run that differs from the default, tokens as environment variables', () => {
    const config = resolveConfig({
      env: {
        CONFORMANCE_TOKEN: 'full-access-secret',
        CONFORMANCE_SCOPED_TOKENS: 'domains:read_only=scoped-secret-1;linodes:read_write,ips:read_only=scoped-secret-2',
      },
      flags: {
        baseUrl: 'https://deploy:pw-secret@api.staging.example.com',
        restrictedToken: 'restricted-secret',
        region: 'eu-west',
        instanceType: 'g7-small',
        largerInstanceType: 'g7-large',
        otherRegion: 'us-west',
        controlUrl: 'https://control.staging.example.com',
        consistencyWindowMs: '12000',
        allowDestructive: 'true',
        maxInstances: 'unlimited',
        shrink: 'false',
        seed: '99',
      },
    });
    registerConfigSecrets(config);
    const command = replayCommand(runInfoOf(config), RULE, FILE);
    expect(command).toBe(
      'npx conformance run --base-url https://api.staging.example.com --token "$CONFORMANCE_TOKEN" --token-scoped "domains:read_only=$CONFORMANCE_TOKEN_DOMAINS_READ_ONLY" --token-scoped "ips:read_only,linodes:read_write=$CONFORMANCE_TOKEN_IPS_READ_ONLY_LINODES_READ_WRITE" --restricted-token "$CONFORMANCE_RESTRICTED_TOKEN" --region eu-west --instance-type g7-small --larger-instance-type g7-large --other-region us-west --control-url https://control.staging.example.com --consistency-window 12000 --max-instances unlimited --allow-destructive --no-shrink --rules P3.firewall.rules.max-25 --seed 99 specs/properties/part3.spec.ts',
    );
    expect(command).not.toMatch(/secret|pw-/);
  });

  it('says no more than needed for a default run: read-only is repeated, the defaults of a staging run are not', () => {
    const config = resolveConfig({ flags: { baseUrl: 'https://api.example.com', token: 'tok-secret', readOnly: 'true', seed: '5' } });
    expect(replayCommand(runInfoOf(config), RULE, FILE)).toBe(
      `npx conformance run --base-url https://api.example.com --token "$CONFORMANCE_TOKEN" --read-only --rules ${RULE} --seed 5 ${FILE}`,
    );
    const embedded = resolveConfig({ flags: { seed: '5', emulatorFaults: RULE } });
    expect(replayCommand(runInfoOf(embedded), RULE, FILE)).toBe(`npx conformance run --emulator-fault ${RULE} --rules ${RULE} --seed 5 ${FILE}`);
  });

  it('reads the value of each header every request carried from a variable named after it, never the value', () => {
    const config = resolveConfig({
      flags: { baseUrl: 'https://api.example.com', token: 'tok-secret', headers: 'X-Api-Key: key-secret\nCF-Access-Client-Id=id-secret', seed: '5' },
    });
    const command = replayCommand(runInfoOf(config), RULE, FILE);
    expect(command).toBe(
      `npx conformance run --base-url https://api.example.com --token "$CONFORMANCE_TOKEN" --header "X-Api-Key: $CONFORMANCE_HEADER_X_API_KEY" --header "CF-Access-Client-Id: $CONFORMANCE_HEADER_CF_ACCESS_CLIENT_ID" --rules ${RULE} --seed 5 ${FILE}`,
    );
    expect(command).not.toMatch(/secret/);
  });

  it("repeats a whole run with its order of spec files; one rule's replay leaves the order out (one file)", () => {
    const config = resolveConfig({
      flags: { seed: '7', shuffle: '12', runs: '20', violationRuns: '3', shrink: 'false', emulatorVariations: 'a-choice,b-choice', consistencyWindowMs: '300' },
    });
    expect(runCommand(runInfoOf(config))).toBe(
      'npx conformance run --emulator-variation a-choice --emulator-variation b-choice --consistency-window 300 --no-shrink --seed 7 --shuffle 12 --runs 20 --violation-runs 3',
    );
    expect(replayCommand(runInfoOf(config), RULE, FILE)).not.toContain('--shuffle');
  });
});

describe('the curl command', () => {
  const failing = exchange(
    'PUT',
    "/v4/networking/firewalls/7/rules?note=it's",
    200,
    {},
    {
      requestHeaders: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${REDACTED}`, 'user-agent': 'conformance' },
      requestBody: { inbound: [{ ports: "1,2 'x'" }] },
    },
  );

  it('sends the failing request to the target again with the token as $TOKEN', () => {
    expect(curlCommand(failing, 'https://api.example.com')).toBe(
      `curl -sS -i -X PUT 'https://api.example.com/v4/networking/firewalls/7/rules?note=it'\\''s' -H "Authorization: Bearer $TOKEN" -H 'accept: application/json' -H 'content-type: application/json' --data-raw '{"inbound":[{"ports":"1,2 '\\''x'\\''"}]}'`,
    );
  });

  it("sends a header every request carried (its value redacted in the evidence) from the replay command's variable", () => {
    const carried = { ...failing, requestHeaders: { ...failing.requestHeaders, 'X-Api-Key': REDACTED } };
    expect(curlCommand(carried, 'https://api.example.com')).toContain(` -H "X-Api-Key: $CONFORMANCE_HEADER_X_API_KEY" `);
  });

  it('names the embedded emulator $BASE_URL, and sends no token where the request had none', () => {
    const anonymous = { ...failing, method: 'GET', path: '/v4/images?$x="1"', requestHeaders: { accept: 'application/json' }, requestBody: undefined };
    expect(curlCommand(anonymous, null)).toBe(`curl -sS -i -X GET "$BASE_URL""/v4/images?\\$x=\\"1\\"" -H 'accept: application/json'`);
  });

  it('sends a JSON body that is a string as JSON, and a body sent as is as it was', () => {
    const withBody = (requestBody: unknown, rawBody?: 'text') => ({ ...failing, requestHeaders: {}, requestBody, ...(rawBody ? { rawBody } : {}) });
    expect(curlCommand(withBody('text'), null)).toMatch(/ --data-raw '"text"'$/);
    expect(curlCommand(withBody('{"label": "x", ', 'text'), null)).toMatch(/ --data-raw '\{"label": "x", '$/);
  });

  it("reads a scoped or restricted token from the replay command's variable, and gives none for a token the run made", () => {
    const sentWith = (tokenOwner: TokenOwner) => curlCommand({ ...failing, tokenOwner }, null);
    expect(sentWith({ token: 'full' })).toContain(' -H "Authorization: Bearer $TOKEN" ');
    expect(sentWith({ token: 'scoped', scopes: 'domains:read_only' })).toContain(' -H "Authorization: Bearer $CONFORMANCE_TOKEN_DOMAINS_READ_ONLY" ');
    expect(sentWith({ token: 'restricted' })).toContain(' -H "Authorization: Bearer $CONFORMANCE_RESTRICTED_TOKEN" ');
    expect(sentWith({ token: 'made' })).toBeUndefined();
  });

  it('gives none for a binary body, whose bytes the evidence does not keep', () => {
    expect(curlCommand({ ...failing, requestBody: '<12 bytes of application/octet-stream>', rawBody: 'binary' }, null)).toBeUndefined();
  });
});

describe('a counterexample', () => {
  it('is shown whole, or cut with a mark saying how much is left out', () => {
    expect(elided('x'.repeat(COUNTEREXAMPLE_MAX))).toBe('x'.repeat(COUNTEREXAMPLE_MAX));
    expect(elided('x'.repeat(COUNTEREXAMPLE_MAX + 1234))).toBe(`${'x'.repeat(COUNTEREXAMPLE_MAX)}… (1,234 more characters left out)`);
  });
});
