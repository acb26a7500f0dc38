/**
 * Contentstack as a two-way content connector, through its Content Management API (CMA, `https://api.contentstack.io/v3`,
 * headers `api_key` (the stack) and `authorization` (a management token)). For each configured content type, the
 * schema (`GET /content_types/{uid}`) names the translatable fields: top-level `data_type: "text"` fields that are
 * single (`multiple: false`), localizable (not `non_localizable`) and plain (not rich text or Markdown). Each such field
 * of each entry is one string (key `<entry uid>.<field uid>`, one unit per content type), its source being the entry
 * in the stack's locale matching the project's source locale (`GET /content_types/{uid}/entries?locale=…&include_count=true&skip=&limit=100`).
 * Translations are read from the localized versions (`locale=<code>`; an entry that is not localized answers with
 * the master version, whose `locale` says so) and written back with `PUT /content_types/{uid}/entries/{entry}?locale=<code>`,
 * which localizes the entry when it is not yet; a fresh read of the locale first leaves any field a person changed
 * since the listing as it is. A localized field that still holds the master text exactly is the copy Contentstack
 * makes on localizing, not a translation.
 *
 * Locales: `GET /locales`; a project target locale the stack lacks is added with `POST /locales` (fallback: the
 * source locale) when `create_locales` is on, else reported. Rate limits: Contentstack's 429 (with
 * `X-RateLimit-Remaining`) is waited out by the shared HTTP client. Webhooks: the webhook carries a custom header
 * `X-Parlance-Webhook-Secret` (or basic auth with the secret as password), compared in constant time; Contentstack's
 * own signature (X-Contentstack-Request-Signature, RSA-PSS over the payload, checked with the region's public key,
 * which the connector cannot fetch by itself) is accepted when the `webhook_public_key` setting holds that key.
 *
 * References: https://www.contentstack.com/docs/developers/apis/content-management-api (entries, localize an entry,
 * locales, content types, errors `{ error_message, error_code, errors }`, 412 for an unknown api_key, 422 for a
 * missing object, 429 rate limit), https://www.contentstack.com/docs/developers/set-up-webhooks (custom headers, basic
 * auth, payload `{ module, api_key, event, data: { entry, content_type } }`), https://www.contentstack.com/docs/developer-hub/securing-your-app
 * (signed webhooks, public keys at /.well-known/public-keys.json), hanoak/contentstack-webhook-verify
 * src/utils/signature-verify.ts and replay-verify.ts (the signature's algorithm and the triggered_at check), and the
 * Management SDK references (entry update with `{ locale }`).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';
import { constants, createPublicKey, verify } from 'node:crypto';

const PAGE_SIZE = 100;
/** How old a signed webhook's `triggered_at` may be. */
const WEBHOOK_MAX_AGE_MS = 5 * 60_000;
/** At most this many entries per content type are read (100 pages). */
const MAX_ENTRIES = 10_000;
const UID = /^[a-z0-9_]+$/;

const ContentstackSettings = z
  .object({
    api_url: z.string().url().default('https://api.contentstack.io').openapi({ description: "The CMA's base URL for the stack's region. Default `https://api.contentstack.io` (AWS NA); e.g. `https://eu-api.contentstack.com`." }),
    api_key: z.string().min(1).openapi({ description: "The stack's API key (Settings → Stack → API key), sent as the `api_key` header." }),
    branch: z.string().min(1).optional().openapi({ description: 'The branch to work on (sent as the `branch` header). Default: the stack\'s main branch.' }),
    content_types: z.array(z.string().regex(UID, "Expected a Contentstack content type UID such as 'blog_post'.")).min(1).openapi({ description: 'The UIDs of the content types whose entries are translated: one path each in Parlance.' }),
    fields: z.array(z.string().regex(UID, "Expected a Contentstack field UID such as 'title'.")).min(1).optional().openapi({ description: 'Only these field UIDs (of every content type); default: every translatable text field.' }),
    locales: z.record(z.string(), z.string().min(1)).default({}).openapi({ description: 'Parlance locale → Contentstack locale code where they differ beyond case and `_`/`-` (`{"de": "de-de"}`).' }),
    create_locales: z.boolean().default(false).openapi({ description: 'Add a project target locale the stack lacks (POST /locales, falling back to the source locale). Needs a token that may manage languages. Default false: reported instead.' }),
    webhook_public_key: z
      .string()
      .regex(/-----BEGIN (RSA )?PUBLIC KEY-----/, 'Expected a PEM public key (-----BEGIN … PUBLIC KEY-----).')
      .optional()
      .openapi({ description: "Optional: Contentstack's webhook signing public key (PEM, from https://app.contentstack.com/.well-known/public-keys.json or your region's app host). When set, a webhook signed in X-Contentstack-Request-Signature is accepted too, if its triggered_at is at most 5 minutes old." }),
  })
  .strict();

const ContentstackSecrets = z
  .object({
    management_token: z.string().min(1).openapi({ description: 'A management token of the stack (Settings → Tokens → Management Tokens) with read and write access to the branch, sent as `authorization`.' }),
  })
  .strict();

export type ContentstackSettings = z.infer<typeof ContentstackSettings>;
export type ContentstackSecrets = z.infer<typeof ContentstackSecrets>;
type Ctx = ConnectorContext<ContentstackSettings, ContentstackSecrets>;

interface SchemaField {
  uid: string;
  data_type: string;
  display_name?: string;
  multiple?: boolean;
  non_localizable?: boolean;
  mandatory?: boolean;
  max?: number;
  field_metadata?: { description?: string; instruction?: string; allow_rich_text?: boolean; markdown?: boolean; multiline?: boolean };
}
interface ContentType {
  uid: string;
  title: string;
  schema: SchemaField[];
}
type Entry = { uid: string; locale?: string; _version?: number; updated_at?: string } & Record<string, unknown>;
/** What `write` needs: the content type, the entry, the field and what each locale held when it was listed. */
type ContentstackRef = { content_type: string; entry: string; field: string; seen: Record<string, string> };

const base = (ctx: Ctx) => `${ctx.settings.api_url.replace(/\/+$/, '')}/v3`;
const headers = (ctx: Ctx): Record<string, string> => ({ api_key: ctx.settings.api_key, authorization: ctx.secrets.management_token, ...(ctx.settings.branch ? { branch: ctx.settings.branch } : {}) });

/** Contentstack's own words from its error body (`{ error_message, error_code, errors: { field: [msg] } }`). */
function contentstackMessage(text: string): { message: string; code?: number } {
  try {
    const body = JSON.parse(text) as { error_message?: string; error_code?: number; errors?: Record<string, unknown> };
    if (typeof body.error_message === 'string') {
      const details = Object.entries(body.errors ?? {})
        .map(([field, value]) => `${field} ${Array.isArray(value) ? value.join(', ') : String(value)}`)
        .join('; ');
      return { message: `${body.error_message}${details ? ` (${details})` : ''}`.slice(0, 300), ...(typeof body.error_code === 'number' ? { code: body.error_code } : {}) };
    }
  } catch {
    // Not Contentstack's envelope: the text itself.
  }
  return { message: text.trim().replace(/\s+/g, ' ').slice(0, 200) };
}

/** The ConnectorError for a failed Contentstack answer: 401/403 the token, 412 the api_key, 5xx/429 unavailable, else the settings. */
async function contentstackFailure(response: Response, what: string): Promise<ConnectorError> {
  const { message, code } = contentstackMessage(await response.text().catch(() => ''));
  const said = `HTTP ${response.status}${code !== undefined ? ` error_code ${code}` : ''}${message ? `: ${message}` : ''}`;
  if (response.status === 401 || response.status === 403) return new ConnectorError('auth', `${what}: Contentstack refused the management token (${said}). Check the token, its stack and its scope, then PATCH the connection.`);
  if (response.status === 412) return new ConnectorError('auth', `${what}: Contentstack does not know the stack API key (${said}). Check the \`api_key\` setting and that the management token belongs to that stack.`);
  if (response.status >= 500 || response.status === 429) return new ConnectorError('unavailable', `${what}: Contentstack answered ${said}.`);
  return new ConnectorError('config', `${what}: Contentstack answered ${said}. Check the connection's settings.`);
}

async function cs<T>(ctx: Ctx, url: string, what: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await ctx.http.request(url, {
    method: init.method ?? 'GET',
    headers: { ...headers(ctx), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  if (!response.ok) throw await contentstackFailure(response, what);
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ConnectorError('unavailable', `${what}: Contentstack answered HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 120)}`);
  }
}

interface LocalePlan {
  source: string;
  /** Parlance tag → Contentstack locale code, for the target locales the stack has. */
  targets: Map<string, string>;
  skipped: string[];
  created: string[];
}

async function planLocales(ctx: Ctx, create: boolean): Promise<LocalePlan> {
  const body = await cs<{ locales?: { code: string }[] }>(ctx, `${base(ctx)}/locales`, 'Listing the Contentstack locales');
  if (!Array.isArray(body.locales)) throw new ConnectorError('config', 'Listing the Contentstack locales: the answer has no `locales` list; is api_url the Content Management API?');
  const codes = body.locales.map((l) => String(l.code));
  const source = matchLocales([ctx.sourceLocale], codes, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!source) throw new ConnectorError('config', `The Contentstack stack has no locale for the project's source locale '${ctx.sourceLocale}' (it has ${codes.join(', ') || 'none'}). Add it, or map it in the \`locales\` setting.`);
  const matched = matchLocales(ctx.targetLocales, codes, ctx.settings.locales);
  const targets = new Map([...matched.codes].filter(([, code]) => code !== source));
  const created: string[] = [];
  if (create && ctx.settings.create_locales) {
    for (const tag of matched.missing) {
      const code = (ctx.settings.locales[tag] ?? tag).toLowerCase();
      await cs(ctx, `${base(ctx)}/locales`, `Adding the locale '${code}' to the Contentstack stack (for ${tag})`, { method: 'POST', body: { locale: { code, fallback_locale: source } } });
      targets.set(tag, code);
      created.push(code);
    }
  }
  return { source, targets, skipped: ctx.targetLocales.filter((tag) => !targets.has(tag)), created };
}

async function readContentType(ctx: Ctx, uid: string): Promise<ContentType> {
  const body = await cs<{ content_type?: ContentType }>(ctx, `${base(ctx)}/content_types/${encodeURIComponent(uid)}`, `Reading the Contentstack content type '${uid}' (setting \`content_types\`)`);
  if (!body.content_type || !Array.isArray(body.content_type.schema)) throw new ConnectorError('config', `Reading the Contentstack content type '${uid}': the answer has no schema.`);
  return body.content_type;
}

/** The content type's translatable fields: single, localizable, plain text (or the `fields` setting's, checked). */
function translatableFields(ctx: Ctx, type: ContentType): SchemaField[] {
  const plain = (f: SchemaField) => f.data_type === 'text' && !f.multiple && !f.non_localizable && !f.field_metadata?.allow_rich_text && !f.field_metadata?.markdown;
  const wanted = ctx.settings.fields;
  // The URL field is text too, but a path, not prose: only translated when named in `fields`.
  if (!wanted) return type.schema.filter((f) => plain(f) && f.uid !== 'url');
  const present = wanted.filter((uid) => type.schema.some((f) => f.uid === uid));
  for (const uid of present) {
    const field = type.schema.find((f) => f.uid === uid)!;
    if (!plain(field)) throw new ConnectorError('config', `Contentstack content type '${type.uid}': field '${uid}' (setting \`fields\`) is not a single, localizable plain text field (data_type ${field.data_type}${field.multiple ? ', multiple' : ''}${field.non_localizable ? ', non-localizable' : ''}${field.field_metadata?.allow_rich_text ? ', rich text' : ''}${field.field_metadata?.markdown ? ', Markdown' : ''}).`);
  }
  if (present.length === 0) throw new ConnectorError('config', `Contentstack content type '${type.uid}' has none of the fields ${wanted.join(', ')} (setting \`fields\`); it has ${type.schema.map((f) => f.uid).join(', ')}.`);
  return type.schema.filter((f) => present.includes(f.uid));
}

async function readEntries(ctx: Ctx, type: string, locale: string): Promise<{ entries: Entry[]; pages: number }> {
  const entries: Entry[] = [];
  for (let skip = 0, page = 1; ; skip += PAGE_SIZE, page++) {
    const url = `${base(ctx)}/content_types/${encodeURIComponent(type)}/entries?locale=${encodeURIComponent(locale)}&include_count=true&skip=${skip}&limit=${PAGE_SIZE}`;
    const body = await cs<{ entries?: Entry[]; count?: number }>(ctx, url, `Listing the entries of the Contentstack content type '${type}' in ${locale} (page ${page})`);
    if (!Array.isArray(body.entries)) throw new ConnectorError('config', `Listing the entries of '${type}': the answer has no \`entries\` list.`);
    entries.push(...body.entries);
    if (entries.length > MAX_ENTRIES) throw new ConnectorError('config', `The Contentstack content type '${type}' has more than ${MAX_ENTRIES} entries, more than one connection syncs; split it.`);
    if (body.entries.length < PAGE_SIZE || (body.count !== undefined && skip + PAGE_SIZE >= body.count)) return { entries, pages: page };
  }
}

function text(type: string, entry: Entry, field: string): string {
  const value = entry[field];
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') throw new ConnectorError('config', `Contentstack entry ${entry.uid} of '${type}': field '${field}' is not text (it holds ${typeof value}).`);
  return value;
}

/** The localized version of an entry in `code`; undefined when the answer is the master version (not localized). */
const localized = (entry: Entry | undefined, code: string) => (entry && entry.locale === code ? entry : undefined);

async function listType(ctx: Ctx, plan: LocalePlan, uid: string): Promise<{ unit: StringUnit; note: string }> {
  const type = await readContentType(ctx, uid);
  const fields = translatableFields(ctx, type);
  const { entries, pages } = await readEntries(ctx, uid, plan.source);
  const inLocale = new Map<string, Map<string, Entry>>();
  for (const code of plan.targets.values()) inLocale.set(code, new Map((await readEntries(ctx, uid, code)).entries.map((e) => [e.uid, e])));
  const strings: RemoteString[] = [];
  for (const entry of entries) {
    for (const field of fields) {
      const source = text(uid, entry, field.uid);
      if (!source) continue;
      const seen: Record<string, string> = {};
      for (const [tag, code] of plan.targets) {
        const version = localized(inLocale.get(code)!.get(entry.uid), code);
        seen[tag] = version ? text(uid, version, field.uid) : '';
      }
      const notes = [field.field_metadata?.description, field.field_metadata?.instruction].filter((n): n is string => typeof n === 'string' && n.trim() !== '').join(' ');
      const ref: ContentstackRef = { content_type: uid, entry: entry.uid, field: field.uid, seen };
      strings.push({
        key: `${entry.uid}.${field.uid}`,
        source,
        context: `${type.title} › ${typeof entry.title === 'string' && entry.title ? entry.title : entry.uid} › ${field.display_name ?? field.uid}`,
        ...(notes ? { notes } : {}),
        ...(typeof field.max === 'number' && field.max > 0 ? { maxLength: field.max } : {}),
        ref,
        // A localized field that still holds the master text is Contentstack's copy on localizing, not a translation.
        translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '' && v !== source)),
      });
    }
  }
  return {
    unit: { kind: 'strings', path: uid, strings, locales: [...plan.targets.keys()] },
    note: `'${uid}': ${entries.length} entries in ${pages} page(s), fields ${fields.map((f) => f.uid).join(', ') || 'none'}.`,
  };
}

async function list(ctx: Ctx) {
  const plan = await planLocales(ctx, true);
  const units: StringUnit[] = [];
  const notes = [`Source locale ${plan.source}.`];
  for (const uid of ctx.settings.content_types) {
    const { unit, note } = await listType(ctx, plan, uid);
    units.push(unit);
    notes.push(note);
  }
  if (plan.created.length) notes.push(`Added the locale(s) ${plan.created.join(', ')} to the stack.`);
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: the stack has no such locale${ctx.settings.create_locales ? '' : ' (set `create_locales` to add them)'}.`);
  return { units, note: notes.join(' ') };
}

function readRef(write: StringWrite): ContentstackRef {
  const ref = write.ref as ContentstackRef | undefined;
  if (!ref || typeof ref.content_type !== 'string' || typeof ref.entry !== 'string' || typeof ref.field !== 'string') {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Contentstack: the string carries no Contentstack reference; sync again so it is listed anew.`);
  }
  return ref;
}

const entryUrl = (ctx: Ctx, type: string, entry: string, code: string) => `${base(ctx)}/content_types/${encodeURIComponent(type)}/entries/${encodeURIComponent(entry)}?locale=${encodeURIComponent(code)}`;

/** Writes one entry's translations in one locale with one PUT, leaving any field a person changed since the listing. */
async function writeEntry(ctx: Ctx, schema: ContentType, entryUid: string, tag: string, code: string, writes: { write: StringWrite; ref: ContentstackRef }[]): Promise<{ written: number; kept: string[] }> {
  const type = schema.uid;
  const read = await ctx.http.request(entryUrl(ctx, type, entryUid, code), { headers: headers(ctx) });
  if (read.status === 422 || read.status === 404) {
    const { message } = contentstackMessage(await read.text());
    return { written: 0, kept: [`${entryUid} (${tag}): the entry is gone from Contentstack (${message})`] };
  }
  if (!read.ok) throw await contentstackFailure(read, `Reading Contentstack entry ${entryUid} of '${type}' in ${code}`);
  const now = ((await read.json()) as { entry: Entry }).entry;
  const version = localized(now, code);
  const changes: Record<string, string> = {};
  const kept: string[] = [];
  for (const { write, ref } of writes) {
    const current = version ? text(type, version, ref.field) : '';
    if (current === write.text) continue;
    const seen = ref.seen[tag] ?? '';
    if (current !== seen) {
      kept.push(`${entryUid}.${ref.field} (${tag})`);
      continue;
    }
    changes[ref.field] = write.text;
  }
  const written = Object.keys(changes).length;
  if (written === 0) return { written, kept };
  // The whole entry in this locale (the localized version, else a copy of the master to localize), changed fields over it.
  const from = version ?? now;
  const entry: Record<string, unknown> = {};
  for (const field of schema.schema) if (field.uid in from) entry[field.uid] = from[field.uid];
  Object.assign(entry, changes);
  await cs(ctx, entryUrl(ctx, type, entryUid, code), `Writing the ${code} translations of Contentstack entry ${entryUid} of '${type}'`, { method: 'PUT', body: { entry } });
  return { written, kept };
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = await planLocales(ctx, false);
  const groups = new Map<string, { type: string; entry: string; tag: string; writes: { write: StringWrite; ref: ContentstackRef }[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    if (!plan.targets.has(one.locale)) {
      absent.add(one.locale);
      continue;
    }
    const id = `${ref.content_type}\u0000${ref.entry}\u0000${one.locale}`;
    const group = groups.get(id) ?? { type: ref.content_type, entry: ref.entry, tag: one.locale, writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  const schemas = new Map<string, ContentType>();
  let written = 0;
  const kept: string[] = [];
  for (const group of groups.values()) {
    const schema = schemas.get(group.type) ?? (await readContentType(ctx, group.type));
    schemas.set(group.type, schema);
    const result = await writeEntry(ctx, schema, group.entry, group.tag, plan.targets.get(group.tag)!, group.writes);
    written += result.written;
    kept.push(...result.kept);
  }
  const notes: string[] = [];
  if (kept.length) notes.push(`Left ${kept.length} field(s) as they are in Contentstack (changed by a person since the listing, or the entry is gone): ${kept.slice(0, 10).join(', ')}.`);
  if (absent.size) notes.push(`Not written: the stack has no locale for ${[...absent].join(', ')}.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/**
 * Contentstack's signature: RSA-PSS with SHA-256 over the payload as JSON.stringify writes it, base64 in
 * X-Contentstack-Request-Signature (optionally after a `name=` prefix), checked with the stack region's public key;
 * `triggered_at` at most WEBHOOK_MAX_AGE_MS old, so a replay is refused.
 */
function signedByContentstack(request: WebhookRequest, publicKey: string, payload: unknown): { ok: boolean; reason: string } {
  const header = request.headers.get('x-contentstack-request-signature') ?? '';
  const first = header.split(',')[0]!.trim();
  const signature = /^[A-Za-z0-9_.-]+=([^=].*)$/.exec(first)?.[1] ?? first;
  let valid = false;
  try {
    valid = verify('sha256', Buffer.from(JSON.stringify(payload)), { key: createPublicKey(publicKey), padding: constants.RSA_PKCS1_PSS_PADDING }, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: "The Contentstack webhook's X-Contentstack-Request-Signature does not verify with the configured webhook_public_key." };
  const at = Date.parse(String((payload as { triggered_at?: unknown } | null)?.triggered_at ?? ''));
  if (Number.isNaN(at)) return { ok: false, reason: 'The signed Contentstack webhook has no triggered_at time.' };
  if (Math.abs(Date.now() - at) > WEBHOOK_MAX_AGE_MS) return { ok: false, reason: `The signed Contentstack webhook is stale (triggered_at ${new Date(at).toISOString()}); refused as a possible replay.` };
  return { ok: true, reason: '' };
}

/**
 * A Contentstack webhook carries the secret in the custom header X-Parlance-Webhook-Secret, or as the basic-auth
 * password; with `webhook_public_key` set, Contentstack's own signature is accepted too. An entry event of a content
 * type not configured, or of another stack, is verified but starts no sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: ContentstackSettings): WebhookVerdict {
  let payload: { module?: unknown; api_key?: unknown; data?: { content_type?: { uid?: unknown }; entry?: { content_type_uid?: unknown } } } | undefined;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(request.body)) as unknown;
    payload = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as typeof payload) : undefined;
  } catch {
    payload = undefined;
  }
  let given = request.headers.get('x-parlance-webhook-secret');
  const basic = request.headers.get('authorization');
  if (!given && basic?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(basic.slice(6).trim(), 'base64').toString('utf8');
    given = decoded.slice(decoded.indexOf(':') + 1);
  }
  if (given) {
    if (!sameSecret(given, webhookSecret)) return { verified: false, sync: false, reason: "The Contentstack webhook's secret does not match the connection's webhook secret." };
  } else if (settings.webhook_public_key && request.headers.has('x-contentstack-request-signature') && payload !== undefined) {
    const signed = signedByContentstack(request, settings.webhook_public_key, payload);
    if (!signed.ok) return { verified: false, sync: false, reason: signed.reason };
  } else {
    return { verified: false, sync: false, reason: 'No X-Parlance-Webhook-Secret header (nor basic auth) on the Contentstack webhook; add it as a custom header of the webhook.' };
  }
  if (payload === undefined) return { verified: true, sync: true };
  if (typeof payload.api_key === 'string' && payload.api_key !== settings.api_key) return { verified: true, sync: false, reason: 'The Contentstack event is about another stack.' };
  if (payload.module === 'entry') {
    const type = payload.data?.content_type?.uid ?? payload.data?.entry?.content_type_uid;
    if (typeof type === 'string' && !settings.content_types.includes(type)) return { verified: true, sync: false, reason: `The Contentstack event is about content type '${type}', not one of ${settings.content_types.join(', ')}.` };
  }
  return { verified: true, sync: true };
}

export const contentstack: Connector<ContentstackSettings, ContentstackSecrets> = {
  id: 'contentstack',
  name: 'Contentstack',
  category: 'content',
  direction: 'two_way',
  summary: "Contentstack entries of chosen content types (Content Management API): their plain text fields are translated and written back as the entries' localized versions.",
  settings: ContentstackSettings,
  secrets: ContentstackSecrets,
  webhooks: "A Contentstack webhook (entry events) with the custom header X-Parlance-Webhook-Secret (or basic auth with the secret as password), compared in constant time; optionally Contentstack's own X-Contentstack-Request-Signature (RSA-PSS SHA-256, checked with the configured webhook_public_key, triggered_at at most 5 minutes old).",
  list,
  write,
  verifyWebhook,
};
