/**
 * Airtable as a two-way content connector, through the Web API (`https://api.airtable.com/v0`): one table of a base
 * holds a key field, a source field and one field per target locale. Each record with a key and a source text is one
 * string (key: the key field's value); the locale fields' cells are what the remote holds in each locale.
 *
 * Each listing first reads the table's fields (`GET /v0/meta/bases/{base}/tables`, scope schema.bases:read): a key,
 * source or locale field that does not exist is a `config` error naming it, and so is one with rich text formatting
 * (type `richText`), whose API value is Markdown, escaped and always ending in "\n": "Hallo" written there would come
 * back as "Hallo\n", differ from what Parlance wrote, and be imported as a person's translation; a source read from
 * it would carry Markdown escapes (Airtable documents no exact escaping to undo, so it is refused too). A token without
 * that scope (403) is noted in the sync log and the listing goes on unchecked, as before the check existed. The write
 * reuses the listing's check: it writes only into the field the listing read (and checked) for each locale.
 *
 * Records are listed 100 a page following `offset` (at most MAX_PAGES pages, with only the key, source and locale
 * fields asked for, optionally through a view). Translations are written with `PATCH /v0/{base}/{table}` of at most 10
 * records a request, `typecast: false`, carrying only the locale fields: never another field, never a new or deleted
 * record. Just before writing, the records are read again (`filterByFormula` on `RECORD_ID()`), and a cell whose value
 * differs from what the listing saw is left alone: a person typed it meanwhile, and the next sync imports it.
 *
 * Airtable allows 5 requests a second per base and answers a 429 that asks for 30 seconds' rest without a
 * Retry-After header, so the connector paces its own requests (REQUEST_GAP_MS) rather than run into it.
 *
 * Webhooks: Airtable's notification is a ping (`{ base: { id }, webhook: { id }, timestamp }`) signed in
 * `X-Airtable-Content-MAC: hmac-sha256=<hex>`, HMAC-SHA256 of the body keyed with the webhook's base64-decoded
 * `macSecretBase64`, to be answered 200 or 204 with an empty body within 25 seconds (anything else is a failed
 * delivery): hence `acknowledge: 'empty'`. Every verified ping for the connection's base (and webhook, when `webhook_id`
 * is set) starts a sync, since the ping does not say what changed. With `webhook_id` set, the listing then reads
 * what did: `GET /v0/bases/{base}/webhooks/{id}/payloads?cursor=` from the cursor the last listing kept
 * (`Listing.state`; on the first, the webhook's `cursorForNextPayload` from `GET /v0/bases/{base}/webhooks`, so
 * older payloads are not read), at most MAX_PAYLOAD_PAGES pages following `mightHaveMore`, and notes how many changes
 * came and how many touched the table. Listing payloads also moves the webhook's expiry to 7 days later (Airtable's
 * documented side effect), so a connection that syncs at least weekly keeps its webhook alive without
 * `POST …/refresh`. A payload read that fails (an unknown webhook, a token without webhook:manage) is noted, keeps the
 * old cursor and does not fail the sync of strings: the records were read all the same.
 *
 * References: https://airtable.com/developers/web/api/get-base-schema (`{ tables: [{ id, name, primaryFieldId, fields:
 * [{ id, name, type, options? }], views }] }`, scope schema.bases:read; field type `richText`),
 * https://support.airtable.com/docs/markdown-rich-text-output-in-the-api (Markdown, the trailing "\n"),
 * https://airtable.com/developers/web/api/list-records (`pageSize` ≤ 100, `offset`, `fields[]`, `view`,
 * `filterByFormula`, empty cells left out), …/update-multiple-records (PATCH, ≤ 10 records, `typecast`),
 * …/errors (`{ error: { type, message } }`, 401/403/404/422, 429 and its 30 s), …/rate-limits (5 requests/s per base),
 * …/webhooks-overview (the ping, X-Airtable-Content-MAC), …/create-a-webhook (`macSecretBase64`),
 * …/list-webhooks (`cursorForNextPayload`, `isHookEnabled`, `expirationTime`), …/list-webhook-payloads (`cursor`,
 * `limit` ≤ 50, `{ payloads, cursor, mightHaveMore }`, the 7-day extension), …/model/webhooks-payload (`timestamp`,
 * `baseTransactionNumber`, `actionMetadata`, `changedTablesById`, and the error payload `{ error: true, code }`),
 * …/refresh-a-webhook, and https://support.airtable.com/docs/airtable-api-common-troubleshooting.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson, type FailureWording } from '../connector-http.js';
import { abortableSleep } from '../../imports/platform-http.js';
import { sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** Airtable's largest page. */
const PAGE_SIZE = 100;
/** The most pages one listing reads by default (10,000 records); the `max_pages` setting changes it. */
const MAX_PAGES = 100;
/** Airtable's most records in one update request. */
const WRITE_BATCH = 10;
/** 5 requests a second per base, with a little room. */
const REQUEST_GAP_MS = 220;
/** Airtable's most payloads in one answer. */
const PAYLOAD_PAGE_SIZE = 50;
/** The most pages of payloads one listing reads (1,000 changes); the next listing goes on from where it stopped. */
const MAX_PAYLOAD_PAGES = 20;

const FIELD_NAME = z.string().trim().min(1);

const AirtableSettings = z
  .object({
    api_url: z.string().url().default('https://api.airtable.com').openapi({ description: "Airtable's API. Default `https://api.airtable.com`." }),
    base_id: z
      .string()
      .regex(/^app[A-Za-z0-9]{14}$/, "Expected an Airtable base id such as 'appAbCdEfGhIjKlMn' (from the base's URL) in `base_id`.")
      .openapi({ description: 'The base id, `app…` (the part of the base URL after `airtable.com/`).' }),
    table: FIELD_NAME.openapi({ description: 'The table, by id (`tbl…`, which survives renaming) or by name.' }),
    key_field: FIELD_NAME.openapi({ description: "The field whose value is each string's key (unique, stable: an id or a slug, not the text)." }),
    source_field: FIELD_NAME.openapi({ description: 'The field holding the source text.' }),
    locale_fields: z
      .record(z.string().min(1), FIELD_NAME)
      .refine((map) => Object.keys(map).length > 0, 'Expected at least one project locale → field name in `locale_fields`, such as {"de": "German"}.')
      .openapi({ description: 'Project locale → the field that holds its translation (`{"de": "German", "fr": "French"}`). Only these fields are ever written.' }),
    view: FIELD_NAME.optional().openapi({ description: 'A view (name or `viw…` id): only its records are listed. Default: every record of the table.' }),
    max_pages: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(MAX_PAGES)
      .openapi({ description: `The most pages of ${PAGE_SIZE} records one sync reads; a table (or view) with more fails the sync, naming this setting. Default ${MAX_PAGES}.` }),
    webhook_id: z
      .string()
      .regex(/^ach[A-Za-z0-9]{14}$/, "Expected an Airtable webhook id such as 'achAbCdEfGhIjKlMn' in `webhook_id`.")
      .optional()
      .openapi({
        description:
          "The webhook (`ach…`) whose pings start a sync; pings of other webhooks of the base are acknowledged and ignored. When set, each sync also reads the webhook's payloads (the token then needs webhook:manage), which keeps the webhook from expiring. Default: any webhook of the base, payloads not read.",
      }),
  })
  .strict()
  .superRefine((settings, issues) => {
    for (const [locale, field] of Object.entries(settings.locale_fields)) {
      if (field === settings.source_field || field === settings.key_field) {
        issues.addIssue({ code: 'custom', path: ['locale_fields', locale], message: `The field '${field}' for ${locale} is the ${field === settings.source_field ? 'source' : 'key'} field; translations need a field of their own.` });
      }
    }
    const fields = Object.values(settings.locale_fields);
    const repeated = fields.find((field, index) => fields.indexOf(field) !== index);
    if (repeated) issues.addIssue({ code: 'custom', path: ['locale_fields'], message: `The field '${repeated}' is named for two locales; each locale needs a field of its own.` });
    if (settings.key_field === settings.source_field) issues.addIssue({ code: 'custom', path: ['key_field'], message: `The key field and the source field are both '${settings.key_field}'; the key must be stable when the text changes.` });
  });

const AirtableSecrets = z
  .object({
    access_token: z
      .string()
      .min(1, 'Expected an Airtable personal access token in `access_token`.')
      .openapi({ description: 'A personal access token (`pat…`) with the scopes data.records:read, data.records:write and schema.bases:read (and webhook:manage with `webhook_id`), with access to the base. Without schema.bases:read the field types are not checked (the sync log says so).' }),
  })
  .strict();

export type AirtableSettings = z.infer<typeof AirtableSettings>;
export type AirtableSecrets = z.infer<typeof AirtableSecrets>;
type Ctx = ConnectorContext<AirtableSettings, AirtableSecrets>;

interface AirtableRecord {
  id: string;
  createdTime?: string;
  fields: Record<string, unknown>;
}
interface RecordPage {
  records: AirtableRecord[];
  offset?: string;
}
/**
 * What `write` needs: the record, what each locale's cell held at the listing ('' for empty), and the field the listing
 * read (and checked) for each locale (absent in refs listed before the check existed).
 */
type AirtableRef = { record: string; seen: Record<string, string>; fields?: Record<string, string> };

/** Airtable's error envelope: `{ error: { type, message } }`, or `{ error: 'NOT_FOUND' }`. */
function airtableMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; errors?: unknown };
    const error = body.error ?? (Array.isArray(body.errors) ? (body.errors[0] as unknown) : undefined);
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object') {
      const { type, message, error: code } = error as { type?: unknown; message?: unknown; error?: unknown };
      const kind = typeof type === 'string' ? type : typeof code === 'string' ? code : '';
      const words = typeof message === 'string' ? message : '';
      return [kind, words].filter(Boolean).join(': ').slice(0, 300);
    }
  } catch {
    // Not JSON: the text itself.
  }
  return text.trim().replace(/\s+/g, ' ').slice(0, 200);
}

const wording = (ctx: Ctx): FailureWording => ({
  vendor: 'Airtable',
  read: airtableMessage,
  // Airtable answers 403 both for a token without access and for a base or table that does not exist.
  credentials: `the connection's access_token (scopes data.records:read and data.records:write, with access to base ${ctx.settings.base_id}) and that base_id and table '${ctx.settings.table}' are right`,
  settings: `the connection's base_id, table, view and field names (key_field '${ctx.settings.key_field}', source_field '${ctx.settings.source_field}', locale_fields)`,
});

/**
 * When the next request to each base may start. Airtable's limit is per base, not per connection, so the connections
 * of one base share it; each caller reserves its slot before sleeping, so concurrent syncs queue rather than collide.
 */
const nextSlot = new Map<string, number>();

/** Waits for this base's next free request slot (never more often than one per REQUEST_GAP_MS). */
async function paced(ctx: Ctx): Promise<void> {
  const base = `${ctx.settings.api_url} ${ctx.settings.base_id}`;
  const now = Date.now();
  const slot = Math.max(now, nextSlot.get(base) ?? 0);
  nextSlot.set(base, slot + REQUEST_GAP_MS);
  if (slot > now) await abortableSleep(slot - now, ctx.signal);
}

/**
 * One request in this base's pace. One that took a second or more was most likely a 429 the HTTP layer waited out and
 * sent again outside the pace, so the next request waits a gap after it rather than follow at once.
 */
async function pacedRequest(ctx: Ctx, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> {
  await paced(ctx);
  const started = Date.now();
  try {
    return await ctx.http.request(url, init);
  } finally {
    if (Date.now() - started >= 1000) {
      const base = `${ctx.settings.api_url} ${ctx.settings.base_id}`;
      nextSlot.set(base, Math.max(nextSlot.get(base) ?? 0, Date.now() + REQUEST_GAP_MS));
    }
  }
}

/** Requests to the connection's table, within Airtable's rate limit, with Airtable's errors worded. */
function airtableClient(ctx: Ctx) {
  const tableUrl = `${ctx.settings.api_url.replace(/\/+$/, '')}/v0/${encodeURIComponent(ctx.settings.base_id)}/${encodeURIComponent(ctx.settings.table)}`;
  async function call<T>(url: string, what: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const response = await pacedRequest(ctx, url, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${ctx.secrets.access_token}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    if (!response.ok) throw await failure(response, what, wording(ctx));
    // connector-http's MAX_ANSWER_BYTES: 100 records of a few long-text cells fit well within it.
    return readJson<T>(response, what, { tooLarge: 'narrow the table with a view' });
  }
  return { tableUrl, call };
}

/** A cell as text: text and numbers are; anything else (attachments, links, checkboxes) is not a string. */
function cellText(value: unknown): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The project's target locales that have a field, each with its field; and what the setting names that is no target. */
function planLocales(ctx: Ctx): { fields: Map<string, string>; unknown: string[]; missing: string[] } {
  const fields = new Map<string, string>();
  const entries = Object.entries(ctx.settings.locale_fields);
  for (const target of ctx.targetLocales) {
    const found = entries.find(([locale]) => sameLocale(locale, target));
    if (found) fields.set(target, found[1]);
  }
  const unknown = entries.filter(([locale]) => !ctx.targetLocales.some((t) => sameLocale(t, locale))).map(([locale]) => locale);
  const missing = ctx.targetLocales.filter((t) => !fields.has(t));
  return { fields, unknown, missing };
}

/** The base's schema, as `GET /v0/meta/bases/{base}/tables` answers it (only what the check reads). */
const BaseSchema = z.object({
  tables: z.array(z.object({ id: z.string(), name: z.string(), fields: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })) })),
});
/** The connection's table's fields by name, or a note for the sync's log on why they could not be read. */
type FieldTypes = { fields: z.infer<typeof BaseSchema>['tables'][number]['fields'] } | { unchecked: string };

/**
 * Reads the field types of the connection's table. A 403 (a token without schema.bases:read) or 404 is a note, never a
 * failure: connections made before the check keep working. A table the base lacks is a `config` error.
 */
async function readFieldTypes(ctx: Ctx): Promise<FieldTypes> {
  const { base_id: base, table } = ctx.settings;
  const what = `Reading the fields of Airtable table '${table}'`;
  const unchecked = (why: string) => ({
    unchecked: `The field types could not be checked (${why}): add the scope schema.bases:read to the access token so that a rich-text field, whose text Airtable gives as Markdown, is refused rather than synced.`,
  });
  const response = await pacedRequest(ctx, `${ctx.settings.api_url.replace(/\/+$/, '')}/v0/meta/bases/${encodeURIComponent(base)}/tables`, {
    method: 'GET',
    headers: { authorization: `Bearer ${ctx.secrets.access_token}` },
  });
  if (response.status === 403 || response.status === 404) {
    const said = airtableMessage(await response.text().catch(() => ''));
    return unchecked(`GET /v0/meta/bases/${base}/tables answered HTTP ${response.status}${said ? `: ${said.slice(0, 80)}` : ''}`);
  }
  if (!response.ok) throw await failure(response, what, wording(ctx));
  const parsed = BaseSchema.safeParse(await readJson<unknown>(response, what));
  if (!parsed.success) return unchecked(`the answer of GET /v0/meta/bases/${base}/tables is not Airtable's schema`);
  const found = parsed.data.tables.find((t) => t.id === table) ?? parsed.data.tables.find((t) => t.name === table);
  if (!found) {
    const tables = parsed.data.tables.map((t) => `'${t.name}' (${t.id})`).join(', ') || 'none';
    throw new ConnectorError('config', `Airtable base ${base} has no table '${table}' (its tables: ${tables.slice(0, 400)}). Set \`table\` to one of them; its tbl… id survives renaming.`);
  }
  return { fields: found.fields };
}

/**
 * Refuses a key, source or (used) locale field the table lacks or that has rich text formatting: its Markdown would be
 * read as text, and what Parlance writes would come back changed. Names are case-sensitive, as Airtable's; an id works too.
 */
function checkFields(ctx: Ctx, types: FieldTypes, plan: ReturnType<typeof planLocales>): void {
  if ('unchecked' in types) return;
  const { table } = ctx.settings;
  const used: [setting: string, field: string][] = [
    ['key_field', ctx.settings.key_field],
    ['source_field', ctx.settings.source_field],
    ...[...plan.fields].map(([target, field]): [string, string] => [`locale_fields.${Object.keys(ctx.settings.locale_fields).find((l) => sameLocale(l, target)) ?? target}`, field]),
  ];
  const missing: string[] = [];
  const rich: string[] = [];
  for (const [setting, name] of used) {
    const field = types.fields.find((f) => f.name === name) ?? types.fields.find((f) => f.id === name);
    if (!field) missing.push(`'${name}' (\`${setting}\`)`);
    else if (field.type === 'richText') rich.push(`'${name}' (\`${setting}\`)`);
  }
  if (missing.length) {
    const names = types.fields.map((f) => `'${f.name}'`).join(', ');
    throw new ConnectorError('config', `Airtable table '${table}' has no field ${missing.join(', ')}; its fields are ${names.slice(0, 400)}. Field names are case-sensitive.`);
  }
  if (rich.length) {
    throw new ConnectorError(
      'config',
      `Airtable field ${rich.join(', ')} of table '${table}' has rich text formatting on: Airtable gives its text as Markdown, escaped and ending in a line break, so what Parlance writes would come back changed (and be imported as a person's translation). Turn off "Enable rich text formatting" in the field's settings, or use another field.`,
    );
  }
}

const fieldsQuery = (query: URLSearchParams, fields: Iterable<string>) => {
  for (const field of fields) query.append('fields[]', field);
};

/** What a listing keeps between syncs: the webhook it read and the cursor of its next payload. */
const WebhookState = z.object({ webhook_id: z.string(), cursor: z.number().int().min(1) });
type WebhookState = z.infer<typeof WebhookState>;

const WebhookList = z.object({
  webhooks: z.array(z.object({ id: z.string(), cursorForNextPayload: z.number().int().min(1), isHookEnabled: z.boolean().optional(), expirationTime: z.string().nullish() })),
});
const PayloadPage = z.object({
  cursor: z.number().int().min(1),
  mightHaveMore: z.boolean(),
  payloads: z.array(z.object({ changedTablesById: z.record(z.string(), z.unknown()).optional(), error: z.boolean().optional(), code: z.string().optional() })),
});

/** A webhook read that went wrong, worded for the sync's log; the listing goes on without it. */
class WebhookReadProblem extends Error {}

/**
 * Reads the payloads of `webhook_id` that came since the last listing: a note for the sync's log and the state to keep
 * (undefined: keep what is stored). Never throws for Airtable's answers: the strings were listed all the same.
 */
async function readPayloads(ctx: Ctx, webhookId: string): Promise<{ note: string; state?: WebhookState }> {
  const { base_id: base, table } = ctx.settings;
  const hookUrl = `${ctx.settings.api_url.replace(/\/+$/, '')}/v0/bases/${encodeURIComponent(base)}/webhooks`;
  async function read<T>(url: string, schema: z.ZodType<T>, what: string): Promise<T> {
    let answer: unknown;
    try {
      const response = await pacedRequest(ctx, url, { method: 'GET', headers: { authorization: `Bearer ${ctx.secrets.access_token}` } });
      if (!response.ok) {
        const said = airtableMessage(await response.text().catch(() => ''));
        const advice =
          response.status === 404
            ? `Set \`webhook_id\` to a webhook of base ${base} (GET /v0/bases/${base}/webhooks lists them).`
            : response.status === 401 || response.status === 403
              ? `Give the access token the scope webhook:manage (and access to base ${base}).`
              : 'The next sync tries again.';
        throw new WebhookReadProblem(`${what}: Airtable answered HTTP ${response.status}${said ? ` (${said})` : ''}. ${advice}`);
      }
      answer = await readJson<unknown>(response, what);
    } catch (error) {
      if (ctx.signal.aborted || !(error instanceof ConnectorError)) throw error;
      throw new WebhookReadProblem(error.message);
    }
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new WebhookReadProblem(`${what}: the answer is not Airtable's (${parsed.error.issues[0]?.message ?? 'unreadable'}); is api_url Airtable's API?`);
    return parsed.data;
  }

  const kept = WebhookState.safeParse(ctx.state);
  const previous = kept.success && kept.data.webhook_id === webhookId ? kept.data : undefined;
  const notes: string[] = [];
  let cursor: number;
  try {
    if (previous) cursor = previous.cursor;
    else {
      const hooks = await read(hookUrl, WebhookList, `Listing the webhooks of Airtable base ${base}`);
      const hook = hooks.webhooks.find((h) => h.id === webhookId);
      if (!hook) {
        const others = hooks.webhooks.map((h) => h.id).join(', ') || 'none';
        throw new WebhookReadProblem(`Airtable base ${base} has no webhook ${webhookId} (it has: ${others}). Set \`webhook_id\` to one of them, or create one (docs/integrations/airtable.md).`);
      }
      cursor = hook.cursorForNextPayload;
      notes.push(`First read of webhook ${webhookId}: from its next payload (${cursor}); earlier changes are not read.`);
      if (hook.isHookEnabled === false) notes.push(`Airtable has disabled webhook ${webhookId} (isHookEnabled false): it sends no pings; create a new one and set \`webhook_id\`.`);
    }
    let changes = 0;
    let inTable = 0;
    const errors = new Set<string>();
    let pages = 0;
    let more = true;
    while (more) {
      if (pages === MAX_PAYLOAD_PAGES) {
        notes.push(`More than ${MAX_PAYLOAD_PAGES * PAYLOAD_PAGE_SIZE} payloads waited: the rest are read from cursor ${cursor} by the next sync.`);
        break;
      }
      pages++;
      const query = new URLSearchParams({ cursor: String(cursor), limit: String(PAYLOAD_PAGE_SIZE) });
      const page = await read(`${hookUrl}/${encodeURIComponent(webhookId)}/payloads?${query}`, PayloadPage, `Reading the payloads of Airtable webhook ${webhookId} (page ${pages})`);
      for (const payload of page.payloads) {
        if (payload.error) errors.add(payload.code ?? 'unknown');
        else changes++;
        if (payload.changedTablesById && Object.hasOwn(payload.changedTablesById, table)) inTable++;
      }
      cursor = page.cursor;
      more = page.mightHaveMore && page.payloads.length > 0;
    }
    // Table ids are the keys of changedTablesById; a table set by name cannot be matched to them.
    const where = table.startsWith('tbl') ? `, ${inTable} of them in table ${table}` : '';
    notes.unshift(`Airtable webhook ${webhookId}: ${changes} change(s) since the last sync${where}; reading them moves its expiry to 7 days from now.`);
    if (errors.size) notes.push(`Airtable reported webhook error(s) ${[...errors].join(', ')}: the webhook is disabled; create a new one and set \`webhook_id\`.`);
    return { note: notes.join(' '), state: { webhook_id: webhookId, cursor } };
  } catch (error) {
    if (!(error instanceof WebhookReadProblem)) throw error;
    return { note: `${error.message}${previous ? ` The cursor stays at ${previous.cursor}.` : ''} The strings were listed all the same.` };
  }
}

async function list(ctx: Ctx): Promise<Listing> {
  const { tableUrl, call } = airtableClient(ctx);
  const { key_field: keyField, source_field: sourceField, view } = ctx.settings;
  const plan = planLocales(ctx);
  const types = await readFieldTypes(ctx);
  checkFields(ctx, types, plan);
  const fieldOf = Object.fromEntries(plan.fields);
  const strings: RemoteString[] = [];
  const skipped = { noKey: 0, noSource: 0, notText: 0, repeated: 0 };
  const seenKeys = new Set<string>();
  let offset: string | undefined;
  let pages = 0;
  let records = 0;
  do {
    if (pages === ctx.settings.max_pages) {
      throw new ConnectorError('config', `Airtable table '${ctx.settings.table}' has more than ${pages * PAGE_SIZE} records${view ? ` in view '${view}'` : ''}, the most one sync reads (\`max_pages\` ${pages}); set \`view\` to a view with fewer, or raise \`max_pages\`.`);
    }
    const query = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
    fieldsQuery(query, [keyField, sourceField, ...plan.fields.values()]);
    if (view) query.set('view', view);
    if (offset) query.set('offset', offset);
    pages++;
    const page = await call<RecordPage>(`${tableUrl}?${query}`, `Listing Airtable table '${ctx.settings.table}' (page ${pages})`);
    if (!Array.isArray(page?.records)) throw new ConnectorError('config', `Listing Airtable table '${ctx.settings.table}': the answer has no records list; is api_url Airtable's API?`);
    records += page.records.length;
    for (const record of page.records) {
      const fields = record.fields ?? {};
      const key = cellText(fields[keyField])?.trim();
      const source = cellText(fields[sourceField]);
      if (source === undefined) {
        skipped.notText++;
        continue;
      }
      if (!key) {
        if (source.trim()) skipped.noKey++;
        continue;
      }
      if (!source.trim()) {
        skipped.noSource++;
        continue;
      }
      if (seenKeys.has(key)) {
        skipped.repeated++;
        continue;
      }
      seenKeys.add(key);
      const seen: Record<string, string> = {};
      for (const [locale, field] of plan.fields) seen[locale] = cellText(fields[field]) ?? '';
      const ref: AirtableRef = { record: record.id, seen, fields: fieldOf };
      strings.push({
        key,
        source,
        context: `Airtable record ${record.id}, field ${sourceField}`,
        ref,
        translations: Object.fromEntries(Object.entries(seen).filter(([, text]) => text !== '')),
      });
    }
    offset = typeof page.offset === 'string' && page.offset !== '' ? page.offset : undefined;
  } while (offset);
  const notes = [`Read ${records} Airtable record(s) in ${pages} page(s): ${strings.length} string(s).`];
  if ('unchecked' in types) notes.push(types.unchecked);
  if (skipped.noKey) notes.push(`${skipped.noKey} record(s) with a source text but no '${keyField}' were left out.`);
  if (skipped.repeated) notes.push(`${skipped.repeated} record(s) repeat a key already listed and were left out; keys in '${keyField}' must be unique.`);
  if (skipped.notText) notes.push(`${skipped.notText} record(s) whose '${sourceField}' is not text were left out.`);
  if (plan.missing.length) notes.push(`No field in \`locale_fields\` for ${plan.missing.join(', ')}: not written.`);
  if (plan.unknown.length) notes.push(`\`locale_fields\` names ${plan.unknown.join(', ')}, not among the project's target locales.`);
  const units: Listing['units'] = [{ kind: 'strings', path: ctx.settings.table, strings, locales: [...plan.fields.keys()] }];
  if (!ctx.settings.webhook_id) return { units, note: notes.join(' ') };
  const hook = await readPayloads(ctx, ctx.settings.webhook_id);
  return { units, note: [...notes, hook.note].join(' '), ...(hook.state ? { state: hook.state } : {}) };
}

function readRef(write: StringWrite): AirtableRef {
  const ref = write.ref as AirtableRef | undefined;
  if (!ref || typeof ref.record !== 'string' || typeof ref.seen !== 'object' || ref.seen === null) {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Airtable: the string carries no Airtable record reference; sync again so it is listed anew.`);
  }
  return ref;
}

/** An Airtable formula string literal. */
const formulaString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const { tableUrl, call } = airtableClient(ctx);
  const plan = planLocales(ctx);
  const byRecord = new Map<string, { write: StringWrite; ref: AirtableRef; field: string }[]>();
  const absent = new Set<string>();
  const moved: string[] = [];
  // Writes left undone are not recorded as written (WriteResult.skipped): the next listing compares with what was there.
  const unwritten: StringWrite[] = [];
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    const field = plan.fields.get(one.locale);
    if (!field) {
      absent.add(one.locale);
      unwritten.push(one);
      continue;
    }
    // Only into the field the listing read and checked: `locale_fields` changed since is left to the next sync.
    if (ref.fields && ref.fields[one.locale] !== field) {
      moved.push(`${one.key} (${one.locale})`);
      unwritten.push(one);
      continue;
    }
    byRecord.set(ref.record, [...(byRecord.get(ref.record) ?? []), { write: one, ref, field }]);
  }
  const ids = [...byRecord.keys()];
  let written = 0;
  const kept: string[] = [];
  const gone: string[] = [];
  for (let i = 0; i < ids.length; i += WRITE_BATCH) {
    const chunk = ids.slice(i, i + WRITE_BATCH);
    // The cells as they are now: one read of the chunk's records, just before the write.
    const query = new URLSearchParams({ pageSize: String(PAGE_SIZE), filterByFormula: `OR(${chunk.map((id) => `RECORD_ID()=${formulaString(id)}`).join(',')})` });
    fieldsQuery(query, new Set(chunk.flatMap((id) => byRecord.get(id)!.map((w) => w.field))));
    const now = await call<RecordPage>(`${tableUrl}?${query}`, `Reading ${chunk.length} Airtable record(s) of '${ctx.settings.table}' before writing`);
    const current = new Map((now?.records ?? []).map((r) => [r.id, r.fields ?? {}]));
    const patch: { id: string; fields: Record<string, string> }[] = [];
    for (const id of chunk) {
      const fields = current.get(id);
      const writes = byRecord.get(id)!;
      if (!fields) {
        gone.push(`${writes[0]!.write.key} (${id})`);
        unwritten.push(...writes.map((w) => w.write));
        continue;
      }
      const changes: Record<string, string> = {};
      for (const { write: one, ref, field } of writes) {
        const there = cellText(fields[field]);
        if (there === one.text) continue;
        if (there !== (ref.seen[one.locale] ?? '')) {
          kept.push(`${one.key} (${one.locale})`);
          unwritten.push(one);
          continue;
        }
        changes[field] = one.text;
      }
      if (Object.keys(changes).length > 0) patch.push({ id, fields: changes });
    }
    if (patch.length === 0) continue;
    await call(tableUrl, `Writing ${patch.length} Airtable record(s) of '${ctx.settings.table}'`, { method: 'PATCH', body: { records: patch, typecast: false } });
    written += patch.reduce((n, r) => n + Object.keys(r.fields).length, 0);
  }
  const notes: string[] = [];
  if (written) notes.push(`Wrote ${written} cell(s) into Airtable.`);
  if (kept.length) notes.push(`Left ${kept.length} cell(s) a person changed in Airtable since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (gone.length) notes.push(`Not written: record(s) deleted since the listing: ${gone.slice(0, 10).join(', ')}.`);
  if (moved.length) notes.push(`Not written: \`locale_fields\` changed since the listing for ${moved.slice(0, 10).join(', ')}; the next sync writes them.`);
  if (absent.size) notes.push(`Not written: ${[...absent].join(', ')} has no field in \`locale_fields\`.`);
  const skipped = unwritten.map((w) => ({ path: w.path, key: w.key, locale: w.locale }));
  return { written, ...(skipped.length ? { skipped } : {}), ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/** `X-Airtable-Content-MAC`'s value: `hmac-sha256=` and the hex HMAC-SHA256 of the body, keyed with the decoded MAC secret. */
export function airtableContentMac(macSecretBase64: string, body: Uint8Array | string): string {
  return `hmac-sha256=${createHmac('sha256', Buffer.from(macSecretBase64, 'base64')).update(body).digest('hex')}`;
}

/**
 * A ping is genuine when X-Airtable-Content-MAC matches the body signed with the webhook's MAC secret (the
 * connection's webhook secret). A genuine ping for another base, or for another webhook than `webhook_id`, starts no
 * sync; any other starts one (with `webhook_id` set, that sync reads the webhook's payloads: see the module's header).
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: AirtableSettings): WebhookVerdict {
  const mac = request.headers.get('x-airtable-content-mac')?.trim();
  if (!mac) return { verified: false, sync: false, reason: 'No X-Airtable-Content-MAC header: Airtable signs every webhook ping with it.' };
  if (Buffer.from(webhookSecret, 'base64').byteLength === 0) return { verified: false, sync: false, reason: "The connection's webhook secret is not the webhook's macSecretBase64; PATCH it with the value Airtable gave when the webhook was created." };
  if (!sameSecret(mac, airtableContentMac(webhookSecret, request.body))) {
    return { verified: false, sync: false, reason: "X-Airtable-Content-MAC does not match the body signed with the connection's webhook secret (the webhook's macSecretBase64)." };
  }
  let ping: { base?: { id?: unknown }; webhook?: { id?: unknown } } | undefined;
  try {
    ping = JSON.parse(new TextDecoder().decode(request.body)) as typeof ping;
  } catch {
    // A signed body that is not a ping still came from Airtable: sync, and let the listing tell.
  }
  const base = ping?.base?.id;
  if (typeof base === 'string' && base !== settings.base_id) return { verified: true, sync: false, reason: `The ping is about base ${base}, not ${settings.base_id}.` };
  const hook = ping?.webhook?.id;
  if (settings.webhook_id && typeof hook === 'string' && hook !== settings.webhook_id) return { verified: true, sync: false, reason: `The ping is from webhook ${hook}, not ${settings.webhook_id}.` };
  return { verified: true, sync: true };
}

export const airtable: Connector<AirtableSettings, AirtableSecrets> = {
  id: 'airtable',
  name: 'Airtable',
  category: 'content',
  direction: 'two_way',
  summary: "An Airtable table with a key field, a source field and one field per locale: each record's source text is translated into its locale fields (only those are written, never a cell a person changed since the listing).",
  settings: AirtableSettings,
  secrets: AirtableSecrets,
  webhooks: "Airtable's X-Airtable-Content-MAC (hmac-sha256= and the hex HMAC-SHA256 of the ping's body, keyed with the webhook's base64-decoded macSecretBase64, given as the connection's webhook_secret)",
  list,
  write,
  // Airtable counts any answer but 200/204 with an empty body as a failed delivery.
  acknowledge: 'empty',
  verifyWebhook,
};
