/**
 * A local Airtable Web API holding one base with one table of text fields (`Key`, `English`, `German`, `French`, and
 * `Notes`, which the connector must never touch) and a view: list records (`GET /v0/{base}/{table}` with `pageSize`,
 * `offset`, `fields[]`, `view`, and the one `filterByFormula` form the connector sends, `OR(RECORD_ID()='rec…',…)`),
 * update records (`PATCH /v0/{base}/{table}`, at most 10, `typecast`), the webhook ping signed with
 * X-Airtable-Content-MAC, and one webhook (AIRTABLE_WEBHOOK, `tableData` of the whole base, no field filter) whose
 * payloads are appended as Airtable does: one per change a test makes through the mock (`edit`, `add`, `remove`,
 * `changeElsewhere`) and one per PATCH (Parlance's own writes), read with list webhooks (`GET /v0/bases/{base}/webhooks`)
 * and list webhook payloads (`GET /v0/bases/{base}/webhooks/{id}/payloads?cursor=&limit=`), and the base's schema
 * (`GET /v0/meta/bases/{base}/tables`; `richText` turns one field into a long text with rich text formatting, read
 * back as Airtable does: Markdown, escaped, ending in "\n"). It keeps Airtable's rate
 * limit: more than 5 requests in a second to the base answer 429 and every request in the next `penaltyMs` (Airtable:
 * 30 s) does too.
 *
 * Shapes from https://airtable.com/developers/web/api/list-records (records `{ id, createdTime, fields }` with empty
 * cells left out, `offset` while more remain, pageSize ≤ 100), …/update-multiple-records (`{ records: [{ id, fields }],
 * typecast }` answered with the updated records, every field), …/errors (`{ error: { type, message } }`; 401, 403
 * INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND with its documented message, 404 `{ error: 'NOT_FOUND' }` for an undefined
 * route, 422, 429 "Rate limit exceeded. Please try again later" and its 30 s), …/webhooks-overview (the ping body
 * `{ base: { id }, webhook: { id }, timestamp }`, X-Airtable-Content-MAC `hmac-sha256=<hex>` keyed with the
 * base64-decoded macSecretBase64), …/create-a-webhook (`macSecretBase64`), …/list-webhooks (`{ webhooks: [{ id,
 * areNotificationsEnabled, cursorForNextPayload, expirationTime, isHookEnabled, lastNotificationResult,
 * lastSuccessfulNotificationTime, notificationUrl, specification }] }`), …/list-webhook-payloads (`{ payloads, cursor,
 * mightHaveMore }`, cursor default 1, `limit` ≤ 50, the cursor unchanged when nothing is returned, the expiry moved to
 * 7 days after the call), …/model/webhooks-payload (`timestamp`, `baseTransactionNumber`, `actionMetadata: { source,
 * sourceMetadata: { user } }`, `payloadFormat: 'v0'`, `changedTablesById` with `changedRecordsById` (`current` and
 * `previous` cellValuesByFieldId), `createdRecordsById`, `destroyedRecordIds`), and Airtable's troubleshooting article
 * (401 AUTHENTICATION_REQUIRED). The schema: …/get-base-schema (`{ tables: [{ id, name, primaryFieldId, fields: [{ id,
 * name, type }], views: [{ id, name, type }] }] }`, field types `singleLineText`, `multilineText`, `richText`), and
 * https://support.airtable.com/docs/markdown-rich-text-output-in-the-api (a rich-text value always ends in "\n").
 *
 * Guessed: the 401 message text ("Authentication required"); the 429 body's `type` (RATE_LIMIT_REACHED) and that it
 * carries no Retry-After (the docs name none); the `offset` format (opaque here, `itr…/rec…`); the 422 types and
 * messages for an unknown field (UNKNOWN_FIELD_NAME), view (VIEW_NAME_NOT_FOUND), formula (INVALID_FILTER_BY_FORMULA),
 * more than 10 records (INVALID_RECORDS) and a non-text value (INVALID_VALUE_FOR_COLUMN); 404 MODEL_ID_NOT_FOUND for
 * a record id the table lacks; that a missing table answers 403 like a missing base. For webhooks: the field ids
 * (`fld` and the name, padded); the 404 for an unknown webhook id (`{ error: { type: 'NOT_FOUND', message } }`), the 403
 * for a token without webhook:manage (INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND, as for records), and the 422 for a
 * `limit` over 50 (INVALID_REQUEST_UNKNOWN); `mightHaveMore` true exactly when payloads remain past the page; the
 * user in `sourceMetadata`. For the schema: the 403 for a token without schema.bases:read
 * (INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND, as for records); the view ids; which characters a rich-text value escapes
 * (here `\ * _ ~ ` # [ ] >`, each with a backslash).
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
/** Each field's type in the base's schema (unless `richText` names it). */
const FIELD_TYPES: Record<(typeof AIRTABLE_FIELDS)[number], string> = { Key: 'singleLineText', English: 'multilineText', German: 'multilineText', French: 'multilineText', Notes: 'multilineText' };
/** Each field's id (`fld…`), as webhook payloads name fields. */
const fieldId = (name: string) => `fld${name.padEnd(14, '0')}`;
/** Another table of the base, for changes the connection's table does not see. */
export const AIRTABLE_OTHER_TABLE = 'tblElsewhere00001';
/** The connection's settings for this table, as a person would fill them in. */
export const AIRTABLE_SETTINGS = { base_id: AIRTABLE_BASE, table: AIRTABLE_TABLE, key_field: 'Key', source_field: 'English', locale_fields: { de: 'German', fr: 'French' } };

interface StoredRecord {
  id: string;
  createdTime: string;
  fields: Record<string, string | number>;
  /** Shown in the `Ready` view. */
  ready: boolean;
}

/** One webhook payload, as list webhook payloads answers it. */
interface StoredPayload {
  timestamp: string;
  baseTransactionNumber: number;
  actionMetadata: { source: string; sourceMetadata: Record<string, unknown> };
  payloadFormat: 'v0';
  changedTablesById: Record<string, Record<string, unknown>>;
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
  /** The webhook's `cursorForNextPayload`: the number the next payload gets. */
  nextPayload(): number;
  /** A person changes a record of another table of the base: a payload that does not name the connection's table. */
  changeElsewhere(): void;
  /** Whether the token lacks webhook:manage: the webhook routes answer 403. */
  withoutWebhookScope: boolean;
  /** Whether the token lacks schema.bases:read: the schema route answers 403. */
  withoutSchemaScope: boolean;
  /** A field with rich text formatting on: typed `richText` in the schema, its cells read as escaped Markdown ending in "\n". */
  richText: string | undefined;
}

const airtableError = (res: ServerResponse, status: number, type: string, message: string) => sendJson(res, status, { error: { type, message } });
const randomId = (prefix: string) =>
  `${prefix}${Array.from(crypto.getRandomValues(new Uint8Array(14)), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[b % 62]).join('')}`;
/** A rich-text cell as the API reads it (the escaped characters are a guess; the trailing "\n" is documented). */
const asMarkdown = (value: string | number) => (typeof value === 'string' ? `${value.replace(/[\\*_~`#[\]>]/g, '\\$&')}\n` : value);
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
  let withoutWebhookScope = false;
  let withoutSchemaScope = false;
  let richText: string | undefined;
  // Payload n (from 1) is payloads[n - 1]: Airtable never resets the cursor, and this mock deletes none.
  const payloads: StoredPayload[] = [];
  let transaction = 0;
  let expirationTime = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const byFieldId = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).map(([name, value]) => [fieldId(name), value]));
  /** A change in the base, as the webhook's next payload. */
  const notify = (source: 'client' | 'publicApi', table: string, changes: Record<string, unknown>) => {
    payloads.push({
      timestamp: new Date().toISOString(),
      baseTransactionNumber: ++transaction,
      actionMetadata: { source, sourceMetadata: source === 'client' ? { user: { id: 'usrPrlnc0000Test1', email: 'editor@example.com', permissionLevel: 'create', name: 'An Editor', profilePicUrl: null } } : { user: { id: 'usrPrlnc0000Api01', email: 'parlance@example.com', permissionLevel: 'edit' } } },
      payloadFormat: 'v0',
      changedTablesById: { [table]: changes },
    });
  };

  const create = (fields: Record<string, string | number>, ready = true) => {
    const id = randomId('rec');
    const createdTime = new Date().toISOString();
    records.push({ id, createdTime, fields: { ...fields }, ready });
    return id;
  };
  const add = (fields: Record<string, string | number>, ready = true) => {
    const id = create(fields, ready);
    notify('client', AIRTABLE_TABLE, { createdRecordsById: { [id]: { createdTime: new Date().toISOString(), cellValuesByFieldId: byFieldId(fields) } } });
    return id;
  };
  // The table as it was before the webhook was created: no payloads.
  SEED.forEach(({ id, source }) => ids.set(id, create({ Key: id, English: source, Notes: `seed ${id}` })));
  for (let n = 0; n < (options.extraRecords ?? 0); n++) create({ Key: `extra.${n + 1}`, English: `Extra string ${n + 1}` }, n % 2 === 0);

  /** The record as Airtable answers it: empty cells left out, only `fields` when asked. */
  const view = (r: StoredRecord, only?: string[]) => ({
    id: r.id,
    createdTime: r.createdTime,
    fields: Object.fromEntries(
      Object.entries(r.fields)
        .filter(([name, value]) => value !== '' && (!only || only.includes(name)))
        .map(([name, value]) => [name, name === richText ? asMarkdown(value) : value]),
    ),
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
    const changed: Record<string, unknown> = {};
    const answered = updates.map((update) => {
      const target = records.find((r) => r.id === update.id)!;
      const previous = Object.fromEntries(Object.keys(update.fields ?? {}).map((name) => [name, target.fields[name] ?? null]));
      Object.assign(target.fields, update.fields);
      changed[target.id] = { current: { cellValuesByFieldId: byFieldId(update.fields ?? {}) }, previous: { cellValuesByFieldId: byFieldId(previous) } };
      return view(target);
    });
    notify('publicApi', AIRTABLE_TABLE, { changedRecordsById: changed });
    sendJson(res, 200, { records: answered });
  }

  const webhook = () => ({
    id: AIRTABLE_WEBHOOK,
    areNotificationsEnabled: true,
    cursorForNextPayload: payloads.length + 1,
    expirationTime,
    isHookEnabled: true,
    lastNotificationResult: null,
    lastSuccessfulNotificationTime: null,
    notificationUrl: 'https://parlance.example/hooks/airtable',
    specification: { options: { filters: { dataTypes: ['tableData'] } } },
  });

  /** `/v0/bases/{base}/webhooks` and `…/{id}/payloads`. */
  function webhooks(method: string, url: URL, base: string, rest: string[], res: ServerResponse): void {
    if (base !== AIRTABLE_BASE || withoutWebhookScope) {
      return airtableError(res, 403, 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', 'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.');
    }
    if (method !== 'GET') return sendJson(res, 404, { error: 'NOT_FOUND' });
    if (rest.length === 0) return sendJson(res, 200, { webhooks: [webhook()] });
    if (rest.length !== 2 || rest[1] !== 'payloads') return sendJson(res, 404, { error: 'NOT_FOUND' });
    if (rest[0] !== AIRTABLE_WEBHOOK) return airtableError(res, 404, 'NOT_FOUND', `Could not find webhook ${rest[0]}`);
    const cursor = Number(url.searchParams.get('cursor') ?? '1');
    const limit = Number(url.searchParams.get('limit') ?? '50');
    if (!Number.isInteger(cursor) || cursor < 1 || !Number.isInteger(limit) || limit < 1 || limit > 50) return airtableError(res, 422, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: parameter validation failed. Check your request data.');
    const page = payloads.slice(cursor - 1, cursor - 1 + limit);
    expirationTime = new Date(Date.now() + 7 * 86_400_000).toISOString();
    sendJson(res, 200, { payloads: page, cursor: cursor + page.length, mightHaveMore: cursor - 1 + page.length < payloads.length });
  }

  /** `/v0/meta/bases/{base}/tables`: the connection's table and one other. */
  function schema(method: string, base: string, rest: string[], res: ServerResponse): void {
    if (method !== 'GET' || rest.length !== 1 || rest[0] !== 'tables') return sendJson(res, 404, { error: 'NOT_FOUND' });
    if (base !== AIRTABLE_BASE || withoutSchemaScope) {
      return airtableError(res, 403, 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', 'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.');
    }
    const field = (name: string, type: string) => ({ id: fieldId(name), name, type });
    sendJson(res, 200, {
      tables: [
        {
          id: AIRTABLE_TABLE,
          name: AIRTABLE_TABLE_NAME,
          primaryFieldId: fieldId('Key'),
          fields: AIRTABLE_FIELDS.map((name) => field(name, name === richText ? 'richText' : FIELD_TYPES[name])),
          views: [
            { id: 'viwPrlnc0000Grid1', name: 'Grid view', type: 'grid' },
            { id: 'viwPrlnc0000Redy1', name: AIRTABLE_VIEW, type: 'grid' },
          ],
        },
        { id: AIRTABLE_OTHER_TABLE, name: 'Elsewhere', primaryFieldId: fieldId('Name'), fields: [field('Name', 'singleLineText')], views: [{ id: 'viwPrlnc0000Grid2', name: 'Grid view', type: 'grid' }] },
      ],
    });
  }

  function handle({ method, url, text, authorization }: RestCmsCall, res: ServerResponse): void {
    if (overLimit()) {
      refused++;
      return airtableError(res, 429, 'RATE_LIMIT_REACHED', 'Rate limit exceeded. Please try again later');
    }
    if (authorization !== `Bearer ${token}`) return airtableError(res, 401, 'AUTHENTICATION_REQUIRED', 'Authentication required');
    const [version, base, table, ...rest] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (version === 'v0' && base === 'meta' && table === 'bases' && rest[0]) return schema(method, rest[0], rest.slice(1), res);
    if (version === 'v0' && base === 'bases' && table && rest[0] === 'webhooks') return webhooks(method, url, table, rest.slice(1), res);
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
      const record = find(id);
      const previous = record.fields[field] ?? null;
      record.fields[field] = value;
      notify('client', AIRTABLE_TABLE, { changedRecordsById: { [id]: { current: { cellValuesByFieldId: { [fieldId(field)]: value } }, previous: { cellValuesByFieldId: { [fieldId(field)]: previous } } } } });
    },
    add,
    remove(id) {
      records.splice(records.indexOf(find(id)), 1);
      notify('client', AIRTABLE_TABLE, { destroyedRecordIds: [id] });
    },
    count: () => records.length,
    nextPayload: () => payloads.length + 1,
    changeElsewhere() {
      notify('client', AIRTABLE_OTHER_TABLE, { changedRecordsById: { [randomId('rec')]: { current: { cellValuesByFieldId: { [fieldId('Name')]: 'Elsewhere' } } } } });
    },
    get withoutWebhookScope() {
      return withoutWebhookScope;
    },
    set withoutWebhookScope(value: boolean) {
      withoutWebhookScope = value;
    },
    get withoutSchemaScope() {
      return withoutSchemaScope;
    },
    set withoutSchemaScope(value: boolean) {
      withoutSchemaScope = value;
    },
    get richText() {
      return richText;
    },
    set richText(value: string | undefined) {
      richText = value;
    },
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
