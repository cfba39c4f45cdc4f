// What the documented error body (`errors`, each with a `reason` and maybe a `field`) says, and what a check
// quotes of an answer in its messages.
import type { Exchange } from './http.js';
import { redactText } from './redact.js';

/**
 * Whether an error body names `field`, a member holding it, or a member inside it (the slot `devices.sdb` at fault
 * may be named by its `volume_id`); a `*` in `field` is any item (either of two equal labels is at fault), and `|`
 * separates places the member may stand in (`region|assignments.*.region`). Null when it names no field at all.
 */
export function namesField(exchange: Exchange, field: string): boolean | null {
  const named = errorFields(exchange.body);
  if (!named.length) return null;
  return named.some((name) => fieldNamedBy(field, name));
}

/** Whether the path `named` names the member at fault `field` (its rules: `namesField`). */
export function fieldNamedBy(field: string, named: string): boolean {
  const path = normaliseField(named).split('.');
  return field.split('|').some((place) =>
    normaliseField(place)
      .split('.')
      .slice(0, path.length)
      .every((segment, i) => segment === '*' || segment === path[i]),
  );
}

/** Whether a body is `{}`, what "Operations that return no resource return `{}`" (document 1) answer. */
export const isEmptyObject = (body: unknown): boolean => !!body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;

/** A 4xx, or a 5xx whose body is the documented error body (`errors`, an array). */
export function isErrorResponse(exchange: Exchange): boolean {
  if (exchange.status >= 400 && exchange.status < 500) return true;
  return exchange.status >= 500 && exchange.status < 600 && Array.isArray((exchange.body as { errors?: unknown } | undefined)?.errors);
}

export function describeExchange(exchange: Exchange): string {
  if (exchange.error) return `no response (${exchange.error})`;
  const reason = (exchange.body as { errors?: Array<{ reason?: unknown }> } | undefined)?.errors?.[0]?.reason;
  // Redacted before it is cut: a token the target echoes never leaves half of itself.
  return `HTTP ${exchange.status}${typeof reason === 'string' ? ` "${redactText(reason).slice(0, 160)}"` : ''}`;
}

/** The members an error body names (each error's `field`), as paths with dots. */
export function errorFields(body: unknown): string[] {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .map((error) => (error as { field?: unknown })?.field)
    .filter((field): field is string => typeof field === 'string' && field.length > 0)
    .map(normaliseField);
}

function normaliseField(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}
