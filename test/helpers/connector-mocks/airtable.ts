/**
 * A local Airtable Web API holding one base with one table of text fields (`Key`, `English`, `German`, `French`, and
 * `Notes`, which the connector must never touch) and a view: list records (`GET /v0/{base}/{table}` with `pageSize`,
 * `offset`, `fields[]`, `view`, and the one `filterByFormula` form the connector sends, `OR(RECORD_ID()='rec…',…)`),
 * update records (`PATCH /v0/{base}/{table}`, at most 10, `typecast`), and the webhook ping signed with
 * X-Airtable-Content-MAC. It keeps Airtable's rate limit: more than 5 requests in a second to the base answer 429 and
 * every request in the next `penaltyMs` (Airtable: 30 s) does too.
 *
 * Shapes from https://airtable.com/developers/web/api/list-records (records `{ id, createdTime, fields }` with empty
 * cells left out, `offset` while more remain, pageSize ≤ 100), …/update-multiple-records (`{ records: [{ id, fields }],
 * typecast }` answered with the updated records, every field), …/errors (`{ error: { type, message } }`; 401, 403
 * INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND with its documented message, 404 `{ error: 'NOT_FOUND' }` for an undefined
 * route, 422, 429 "Rate limit exceeded. Please try again later" and its 30 s), …/webhooks-overview (the ping body
 * `{ base: { id }, webhook: { id }, timestamp }`, X-Airtable-Content-MAC `hmac-sha256=<hex>` keyed with the
 * base64-decoded macSecretBase64), …/create-a-webhook (`macSecretBase64`), and Airtable's troubleshooting article
 * (401 AUTHENTICATION_REQUIRED).
 *
 * Guessed: the 401 message text ("Authentication required"); the 429 body's `type` (RATE_LIMIT_REACHED) and that it
 * carries no Retry-After (the docs name none); the `offset` format (opaque here, `itr…/rec…`); the 422 types and
 * messages for an unknown field (UNKNOWN_FIELD_NAME), view (VIEW_NAME_NOT_FOUND), formula (INVALID_FILTER_BY_FORMULA),
 * more than 10 records (INVALID_RECORDS) and a non-text value (INVALID_VALUE_FOR_COLUMN); 404 MODEL_ID_NOT_FOUND for
 * a record id the table lacks; that a missing table answers 403 like a missing base.
 */
import type { ServerResponse } from 'node:http';
import { airtableContentMac } from '../../../server/integrations/connectors/airtable.js';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock } from './rest-cms-mock.js';

export const AIRTABLE_BASE = 'appPrlnc0000Test1';
export const AIRTABLE_TABLE = 'tblStrings0000001';
export const AIRTABLE_TABLE_NAME = 'Strings';
export const AIRTABLE_VIEW = 'Ready';
export const AIRTABLE_WEBHOOK = 'achPrlnc0000Hook1';
export const AIRTABLE_FIELDS = ['Key', 'English', 'German', 'French', 'Notes'] as const;
/** The connection's settings for this table, as a person would fill them in. */
export const AIRTABLE_SETTINGS = { base_id: AIRTABLE_BASE, table: AIRTABLE_TABLE, key_field: 'Key', source_field: 'English', locale_fields: { de: 'German', fr: 'French' } };

interface StoredRecord {
  id: string;
  createdTime: string;
  fields: Record<string, string | number>;
  /** Shown in the `Ready` view. */
  ready: boolean;
}

export interface AirtableMockOptions {
  /** Records besides the SEED ones, to page through. */
  extraRecords?: number;
  /** How long Airtable refuses every request after its rate limit was passed (Airtable: 30 s). */
  penaltyMs?: number;
}

export interface AirtableMock extends RestCmsMock {
  token: string;
  /** The record id of each seed id. */
  ids: Map<string, string>;
  /** Requests the rate limit refused (the connector should pace itself so there are none). */
  refused: number;
  /** A cell's value now (undefined when empty). */
  cell(recordId: string, field: string): string | number | undefined;
  /** A person edits a cell in Airtable's grid (an empty text empties it). */
  edit(recordId: string, field: string, value: string | number): void;
  add(fields: Record<string, string | number>, ready?: boolean): string;
  remove(recordId: string): void;
  count(): number;
}

const airtableError = (res: ServerResponse, status: number, type: string, message: string) => sendJson(res, status, { error: { type, message } });
const randomId = (prefix: string) =>
  `${prefix}${Array.from(crypto.getRandomValues(new Uint8Array(14)), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[b % 62]).join('')}`;
const RECORD_FORMULA = /^RECORD_ID\(\)='(rec[A-Za-z0-9]{14})'$/;

export async function startAirtableMock(options: AirtableMockOptions = {}): Promise<AirtableMock> {
  const token = `pat${randomId('')}.${crypto.randomUUID().replaceAll('-', '')}`;
  const records: StoredRecord[] = [];
  const ids = new Map<string, string>();
  const iterators = new Map<string, number>();
  const recent: number[] = [];
  const penaltyMs = options.penaltyMs ?? 30_000;
  let penaltyUntil = 0;
  let refused = 0;

  const add = (fields: Record<string, string | number>, ready = true) => {
    const id = randomId('rec');
    records.push({ id, createdTime: new Date().toISOString(), fields: { ...fields }, ready });
    return id;
  };
  SEED.forEach(({ id, source }) => ids.set(id, add({ Key: id, English: source, Notes: `seed ${id}` })));
  for (let n = 0; n < (options.extraRecords ?? 0); n++) add({ Key: `extra.${n + 1}`, English: `Extra string ${n + 1}` }, n % 2 === 0);

  /** The record as Airtable answers it: empty cells left out, only `fields` when asked. */
  const view = (r: StoredRecord, only?: string[]) => ({
    id: r.id,
    createdTime: r.createdTime,
    fields: Object.fromEntries(Object.entries(r.fields).filter(([name, value]) => value !== '' && (!only || only.includes(name)))),
  });

  /** Airtable's 5 requests a second per base, and the 30 s that follow a breach. */
  function overLimit(): boolean {
    const now = Date.now();
    if (now < penaltyUntil) return true;
    while (recent.length > 0 && recent[0]! <= now - 1000) recent.shift();
    recent.push(now);
    if (recent.length <= 5) return false;
    penaltyUntil = now + penaltyMs;
    return true;
  }

  function listRecords(url: URL, res: ServerResponse): void {
    const pageSize = Number(url.searchParams.get('pageSize') ?? '100');
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) return airtableError(res, 422, 'INVALID_REQUEST_UNKNOWN', `Invalid request: parameter validation failed. Check your request data.`);
    const only = url.searchParams.getAll('fields[]');
    const unknown = only.find((f) => !(AIRTABLE_FIELDS as readonly string[]).includes(f));
    if (unknown) return airtableError(res, 422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${unknown}"`);
    let rows = records;
    const viewName = url.searchParams.get('view');
    if (viewName !== null) {
      if (viewName !== AIRTABLE_VIEW) return airtableError(res, 422, 'VIEW_NAME_NOT_FOUND', `Could not find view ${viewName} in table ${AIRTABLE_TABLE_NAME}`);
      rows = rows.filter((r) => r.ready);
    }
    const formula = url.searchParams.get('filterByFormula');
    if (formula !== null) {
      const inner = /^OR\((.*)\)$/.exec(formula)?.[1];
      const wanted = inner?.split(',').map((part) => RECORD_FORMULA.exec(part)?.[1]);
      if (!wanted || wanted.some((id) => id === undefined)) return airtableError(res, 422, 'INVALID_FILTER_BY_FORMULA', `The formula for filtering records is invalid: ${formula}`);
      rows = rows.filter((r) => wanted.includes(r.id));
    }
    const offset = url.searchParams.get('offset');
    let start = 0;
    if (offset !== null) {
      const found = iterators.get(offset);
      if (found === undefined) return airtableError(res, 422, 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE', 'The offset is not valid.');
      start = found;
    }
    const page = rows.slice(start, start + pageSize);
    let next: string | undefined;
    if (start + pageSize < rows.length) {
      next = `${randomId('itr')}/${rows[start + pageSize]!.id}`;
      iterators.set(next, start + pageSize);
    }
    sendJson(res, 200, { records: page.map((r) => view(r, only.length > 0 ? only : undefined)), ...(next ? { offset: next } : {}) });
  }

  function updateRecords(text: string, res: ServerResponse): void {
    let body: { records?: unknown; typecast?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return airtableError(res, 400, 'INVALID_REQUEST_BODY', 'Could not parse request body');
    }
    if (!Array.isArray(body.records) || body.records.length === 0) return airtableError(res, 422, 'INVALID_RECORDS', 'records must be a non-empty array');
    if (body.records.length > 10) return airtableError(res, 422, 'INVALID_RECORDS', 'You can update at most 10 records per request');
    const updates = body.records as { id?: unknown; fields?: Record<string, unknown> }[];
    // Airtable validates the whole request before changing anything.
    for (const update of updates) {
      const target = records.find((r) => r.id === update.id);
      if (!target) return airtableError(res, 404, 'MODEL_ID_NOT_FOUND', `Record ID ${String(update.id)} does not exist in this table`);
      for (const [name, value] of Object.entries(update.fields ?? {})) {
        if (!(AIRTABLE_FIELDS as readonly string[]).includes(name)) return airtableError(res, 422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
        if (typeof value !== 'string' && body.typecast !== true) return airtableError(res, 422, 'INVALID_VALUE_FOR_COLUMN', `Field "${name}" cannot accept the provided value`);
      }
    }
    const answered = updates.map((update) => {
      const target = records.find((r) => r.id === update.id)!;
      Object.assign(target.fields, update.fields);
      return view(target);
    });
    sendJson(res, 200, { records: answered });
  }

  function handle({ method, url, text, authorization }: RestCmsCall, res: ServerResponse): void {
    if (overLimit()) {
      refused++;
      return airtableError(res, 429, 'RATE_LIMIT_REACHED', 'Rate limit exceeded. Please try again later');
    }
    if (authorization !== `Bearer ${token}`) return airtableError(res, 401, 'AUTHENTICATION_REQUIRED', 'Authentication required');
    const [version, base, table, ...rest] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (version !== 'v0' || !base || !table || rest.length > 0) return sendJson(res, 404, { error: 'NOT_FOUND' });
    if (base !== AIRTABLE_BASE || (table !== AIRTABLE_TABLE && table !== AIRTABLE_TABLE_NAME)) {
      return airtableError(res, 403, 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', 'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.');
    }
    if (method === 'GET') return listRecords(url, res);
    if (method === 'PATCH') return updateRecords(text, res);
    return sendJson(res, 404, { error: 'NOT_FOUND' });
  }

  const server = await serveRestCms({
    // Airtable names no Retry-After: the 30 s are in its documentation only.
    tooManyRequests: (res) => airtableError(res, 429, 'RATE_LIMIT_REACHED', 'Rate limit exceeded. Please try again later'),
    internalError: (res, error) => airtableError(res, 500, 'SERVER_ERROR', `internal error: ${String(error)}`),
    handle,
  });
  const find = (id: string) => {
    const found = records.find((r) => r.id === id);
    if (!found) throw new Error(`No Airtable record ${id}`);
    return found;
  };
  return {
    ...server,
    token,
    ids,
    get refused() {
      return refused;
    },
    cell: (id, field) => {
      const value = find(id).fields[field];
      return value === '' ? undefined : value;
    },
    edit(id, field, value) {
      find(id).fields[field] = value;
    },
    add,
    remove(id) {
      records.splice(records.indexOf(find(id)), 1);
    },
    count: () => records.length,
  };
}

/** A ping as Airtable sends it to the webhook's notification URL, signed with the webhook's macSecretBase64. */
export function airtablePing(macSecretBase64: string, ping: { base?: string; webhook?: string } = {}): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ base: { id: ping.base ?? AIRTABLE_BASE }, webhook: { id: ping.webhook ?? AIRTABLE_WEBHOOK }, timestamp: new Date().toISOString() });
  return { headers: { 'content-type': 'application/json; charset=utf-8', 'x-airtable-content-mac': airtableContentMac(macSecretBase64, body) }, body };
}

export async function airtableFixture(): Promise<RemoteFixture> {
  const mock = await startAirtableMock();
  const record = (id: string) => {
    const found = mock.ids.get(id);
    if (found === undefined) throw new Error(`No Airtable record for seed '${id}'`);
    return found;
  };
  const field = (locale: string) => (AIRTABLE_SETTINGS.locale_fields as Record<string, string>)[locale]!;
  return {
    connector: 'airtable',
    settings: { ...AIRTABLE_SETTINGS, api_url: mock.url, webhook_id: AIRTABLE_WEBHOOK },
    secrets: { access_token: mock.token },
    badSecrets: { access_token: 'patWRONGwrongWRONG.0000000000000000000000000000000000000000000000000000000000000000' },
    async setSource(id, text) {
      mock.edit(record(id), 'English', text);
    },
    translation: async (id, locale) => {
      const value = mock.cell(record(id), field(locale));
      return value === undefined ? undefined : String(value);
    },
    async editTranslation(id, locale, text) {
      mock.edit(record(id), field(locale), text);
    },
    sourceCount: async () => mock.count(),
    webhook: (secret) => airtablePing(secret),
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
