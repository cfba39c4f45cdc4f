// A restricted user of a check's own, for the checks of what a restricted user is shown (events, maintenance).
import type { Check } from '../../harness/check.js';
import type { PrincipalSpec } from '../../harness/control-hooks.js';
import { registerSecret } from '../../harness/redact.js';

/** Whether the control hooks answer at the base URL (a token minted there is one the target knows). */
export const controlAtBase = (c: Check) => c.target.control !== null && c.target.info.controlUrl === c.target.info.baseUrl;

/**
 * A restricted user of its own: on a target with control hooks at its base URL, minted under `username` (events the
 * caller caused are its own, so it must not share the full-access user's name); else the harness's.
 */
export async function restrictedUser(c: Check, grants: NonNullable<PrincipalSpec['grants']>, username: string): Promise<string> {
  if (controlAtBase(c)) {
    const minted = await c.post('/__control/tokens', { scopes: '*', restricted: true, username, grants }, { token: null });
    const token = (minted.body as Record<string, unknown> | undefined)?.token;
    if (minted.status !== 200 || typeof token !== 'string') throw new Error(`the control hook POST /__control/tokens answered ${minted.status}`);
    registerSecret(token);
    return token;
  }
  if (c.target.control) c.skip('needs a restricted user of its own: the control hooks are not at the base URL');
  return c.principal({ scopes: '*', restricted: true, grants });
}
