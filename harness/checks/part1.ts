import { timeOf } from '../date-times.js';
import { isMysqlEngine } from '../picks.js';
import type { SemanticCheck, SemanticProblem } from './types.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const HOUR = 3_600_000;

/** Constraints of document 1 that JSON Schema cannot express, named by `"x-check"` in the schemas. */
export const checks: Record<string, SemanticCheck> = {
  /** `results` is the total number of results, so one page can never hold more. */
  'list-envelope-arithmetic': (value) => {
    if (!isObject(value)) return [];
    const list = value as { data?: unknown; page?: unknown; results?: unknown; pages?: unknown };
    if (!Array.isArray(list.data) || typeof list.results !== 'number') return [];
    const problems = [];
    if (list.data.length > list.results)
      problems.push({
        rule: 'P1.conventions.list.results',
        message: `data holds ${list.data.length} items but results says ${list.results} in total`,
        path: '/results',
      });
    if (list.page === 0 && (list.results !== 0 || list.pages !== 0))
      problems.push({
        rule: 'P1.conventions.list.page',
        message: `page is 0 of ${String(list.pages)} pages, ${list.results} results (page 0 only of an empty list of no pages)`,
        path: '/page',
      });
    if (list.results > 0 && typeof list.pages === 'number' && list.pages < 1)
      problems.push({ rule: 'P1.conventions.list.pages', message: `results is ${list.results} but pages is ${list.pages}`, path: '/pages' });
    return problems;
  },

  /** Engine `id` has the form `<engine>/<version>`: inferred, it joins the object's own `engine` and `version`. */
  'database-engine-id': (value) => {
    if (!isObject(value)) return [];
    const { id, engine, version } = value;
    if (typeof id !== 'string' || typeof engine !== 'string' || typeof version !== 'string') return [];
    // an id not of the form <engine>/<version> is reported by the schema's pattern alone
    if (!/^[^/]+\/[^/]+$/.test(id) || id === `${engine}/${version}`) return [];
    return [{ rule: 'P1.database-engine.id.matches-engine-version', message: `id "${id}" is not "${engine}/${version}"`, path: '/id' }];
  },

  /**
   * `instance_uri` is the path of the cluster's own view endpoint. Only MySQL's is shown (GET
   * /v4/databases/mysql/instances/{instanceId}): a MySQL cluster's ends with `/databases/mysql/instances/<id>`; of
   * another engine's, only that its last segment is the cluster's id (every view path ends with its id).
   */
  'database-instance-uri': (value) => {
    if (!isObject(value)) return [];
    const { instance_uri: uri, id } = value;
    if (typeof uri !== 'string' || typeof id !== 'number') return [];
    const path = uri.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '');
    const segments = path.split('/').filter((segment) => segment !== '');
    const expected = isMysqlEngine(value) ? ['databases', 'mysql', 'instances', String(id)] : [String(id)];
    if (segments.slice(-expected.length).join('/') === expected.join('/')) return [];
    return [{ rule: 'P1.database.instance-uri.own-view-path', message: `instance_uri "${uri}" is not the view path of cluster ${id}`, path: '/instance_uri' }];
  },

  /**
   * The CA certificate is base64-encoded (line breaks between groups tolerated): base64 of the certificate, or PEM text,
   * which is base64 between its armour lines (what the value holds is not shown beyond "base64-encoded certificate").
   */
  base64: (value) => {
    if (typeof value !== 'string') return [];
    const pem = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)\r?\n-----END \1-----\s*$/.exec(value);
    const compact = (pem ? pem[2]! : value).replace(/\r?\n/g, '');
    if (compact.length > 0 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return [];
    return [{ rule: 'P1.database-ssl.ca-certificate.base64', message: 'ca_certificate is not a base64 string' }];
  },

  /**
   * For US or CA addresses only the two-letter state or province code is accepted (AA, AE, AP for US military are
   * two-letter codes too). The rule says what an update takes: "" (a state never given, or an account showing a
   * country without one) is not judged.
   */
  'account-state-code': (value) => {
    if (!isObject(value)) return [];
    const { country, state } = value;
    if (typeof country !== 'string' || typeof state !== 'string' || state === '') return [];
    if (!['US', 'CA'].includes(country.toUpperCase())) return [];
    if (/^[A-Z]{2}$/.test(state)) return [];
    return [{ rule: 'P1.account.state.us-ca-code', message: `state "${state}" is not a two-letter code for country ${country}`, path: '/state' }];
  },

  /** A transfer expires 24 hours after creation: `expiry` = `created` + 24 h (one second of rounding tolerated). */
  'entity-transfer-expiry': (value) => {
    if (!isObject(value)) return [];
    const created = timeOf(value.created);
    const expiry = timeOf(value.expiry);
    if (created === undefined || expiry === undefined) return [];
    if (Math.abs(expiry - created - 24 * HOUR) <= 1000) return [];
    return [
      {
        rule: 'P1.entity-transfer.expiry.created-plus-24h',
        message: `expiry ${String(value.expiry)} is not 24 hours after created ${String(value.created)}`,
        path: '/expiry',
      },
    ];
  },

  /** Inferred: `total` (after tax) = `subtotal` (before tax) + `tax`, to the cent. */
  'invoice-total': (value) => {
    if (!isObject(value)) return [];
    const { subtotal, tax, total } = value;
    if (typeof subtotal !== 'number' || typeof tax !== 'number' || typeof total !== 'number') return [];
    if (Math.abs(subtotal + tax - total) < 0.005 + 1e-9) return [];
    return [{ rule: 'P1.invoice.total.subtotal-plus-tax', message: `total ${total} is not subtotal ${subtotal} + tax ${tax}`, path: '/total' }];
  },

  /** Inferred: an invoice item's period runs forward (`from` is not after `to`). */
  'invoice-item-period': (value) => {
    if (!isObject(value)) return [];
    const from = timeOf(value.from);
    const to = timeOf(value.to);
    if (from === undefined || to === undefined || from <= to) return [];
    const problem: SemanticProblem = {
      rule: 'P1.invoice-item.from-not-after-to',
      message: `from ${String(value.from)} is after to ${String(value.to)}`,
      path: '/from',
    };
    return [problem];
  },
};
