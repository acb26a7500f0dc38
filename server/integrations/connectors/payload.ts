/**
 * Payload CMS (v3) as a two-way content connector, through its REST API and its field-level localization
 * (`localization` in the Payload config, `localized: true` on a field). Each configured text field of each document of
 * a collection (key `<id>.<field>`) and of a global (key `<field>`) is one string, its source the value in the source
 * locale. Documents are read once with `locale=all&depth=0` (every localized field comes as `{ "<locale>": value }`,
 * with no fallback filled in), over `page`/`limit` pages until `hasNextPage` is false; translations are written back
 * with one `PATCH /api/{collection}/{id}?locale=<code>` (globals: `POST /api/globals/{slug}?locale=<code>`) per
 * document and locale, after reading the document again so that a value a person changed since the listing (its
 * `updatedAt` moved and the value differs from what was listed) is left as it is.
 *
 * Limits, said rather than faked: Payload exposes neither its localization config nor its field schemas over REST,
 * so the connection names the config's locale codes (`payload_locales`; Payload silently reads and writes an unknown
 * locale as the default one, so a locale not named there is never written) and any maximum lengths (`max_lengths`).
 * Field paths go through groups (`meta.description`); arrays, blocks and rich text (Lexical JSON) are not text and are
 * refused with an error naming the field. Payload sends no signed notifications of its own (hooks are code): the
 * set-up guide's `afterChange` hook signs its request with the connection's webhook secret in X-Parlance-Signature
 * (`t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">`, five minutes' tolerance), else syncs run on the schedule and on demand.
 *
 * References: https://payloadcms.com/docs/rest-api/overview (routes, `depth`, `locale`, `fallback-locale`, `limit`,
 * `page`, `sort`; PATCH answers `{ doc, message }`), https://payloadcms.com/docs/queries/pagination (`docs`,
 * `totalDocs`, `totalPages`, `page`, `hasNextPage`, `nextPage`), https://payloadcms.com/docs/configuration/localization
 * (`locale=all`/`*`, `fallback-locale=none`), https://payloadcms.com/docs/authentication/api-keys (`Authorization:
 * <collection slug> API-Key <key>`), https://payloadcms.com/docs/authentication/jwt (`Authorization: JWT <token>`),
 * https://payloadcms.com/docs/hooks/collections (afterChange), and payloadcms/payload
 * packages/payload/src/utilities/addLocalesToRequest.ts (`sanitizeLocales`: an unknown locale becomes the default).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { verifyParlanceSignature } from './http.js';

const PAGE_SIZE = 100;
/** At most this many pages of one collection (50 000 documents). */
const MAX_PAGES = 500;
const SLUG = /^[A-Za-z0-9_-]+$/;
const FIELD = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;
const slug = (what: string) => z.string().regex(SLUG, `Expected a Payload ${what} slug such as 'posts'.`);
const fieldList = z.array(z.string().regex(FIELD, "Expected a field name or a path through groups, such as 'title' or 'meta.description'.")).min(1);

const PayloadSettings = z
  .object({
    api_url: z.string().url().openapi({ description: 'The Payload server, e.g. `https://cms.example.com` (the REST API is under `api_route`).' }),
    api_route: z
      .string()
      .regex(/^\/[A-Za-z0-9/_-]*$/, "Expected a path such as '/api'.")
      .default('/api')
      .openapi({ description: "The config's `routes.api`. Default `/api`." }),
    collections: z
      .record(slug('collection'), fieldList)
      .default({})
      .openapi({ description: 'Collection slug → its localized text fields to translate: `{"posts": ["title", "meta.description"]}`. One path per collection.' }),
    globals: z
      .record(slug('global'), fieldList)
      .default({})
      .openapi({ description: 'Global slug → its localized text fields to translate: `{"header": ["tagline"]}`. One path per global, `globals/<slug>`.' }),
    payload_locales: z
      .array(z.string().min(1).max(35))
      .min(1)
      .openapi({ description: "The codes of the Payload config's `localization.locales` (`[\"en\", \"de\", \"fr\"]`). Payload does not publish them, and it treats an unknown locale as the default one, so only these are written." }),
    locales: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ description: 'Parlance locale → Payload locale code where they differ (`{"pt-BR": "pt"}`); others match case-insensitively, `_` read as `-`.' }),
    auth_collection: slug('collection').default('users').openapi({ description: 'The auth collection (with `useAPIKey`) the API key or token belongs to. Default `users`.' }),
    max_lengths: z
      .record(z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_$.]+$/, "Expected '<slug>.<field>'."), z.number().int().positive())
      .default({})
      .openapi({ description: 'Maximum lengths of fields, as set by `maxLength` in the Payload config, which the REST API does not publish: `{"posts.title": 80}`.' }),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (Object.keys(value.collections).length === 0 && Object.keys(value.globals).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['collections'], message: 'Name at least one collection (or global) and its fields, e.g. {"posts": ["title"]}.' });
    }
  });

const PayloadSecrets = z
  .object({
    api_key: z.string().min(1).optional().openapi({ description: "An API key of a user of `auth_collection` (its collection has `auth.useAPIKey`), sent as `Authorization: <auth_collection> API-Key <key>`. The user's access must allow read and update of the collections and globals." }),
    token: z.string().min(1).optional().openapi({ description: 'Instead of an API key: a JWT from `POST /api/<auth_collection>/login`, sent as `Authorization: JWT <token>` (it expires; an API key does not).' }),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (!value.api_key === !value.token) ctx.addIssue({ code: 'custom', path: ['api_key'], message: 'Give exactly one of api_key (recommended) or token.' });
  });

export type PayloadSettings = z.infer<typeof PayloadSettings>;
export type PayloadSecrets = z.infer<typeof PayloadSecrets>;
type Ctx = ConnectorContext<PayloadSettings, PayloadSecrets>;

type Doc = { id?: string | number; updatedAt?: string } & Record<string, unknown>;
interface PayloadPage {
  docs: Doc[];
  totalDocs?: number;
  totalPages?: number;
  page?: number;
  hasNextPage?: boolean;
}

/** A collection document or a global: where a string lives in Payload. */
type Target = { kind: 'collection'; slug: string; id: string | number } | { kind: 'global'; slug: string };
/** What `write` needs: the document, the field path, its `updatedAt` and what each locale held when it was listed. */
type PayloadRef = Target & { field: string; updatedAt: string | null; seen: Record<string, string> };

const base = (ctx: Ctx) => `${ctx.settings.api_url.replace(/\/+$/, '')}${ctx.settings.api_route.replace(/\/+$/, '')}`;
const auth = (ctx: Ctx) => ({ authorization: ctx.secrets.api_key ? `${ctx.settings.auth_collection} API-Key ${ctx.secrets.api_key}` : `JWT ${ctx.secrets.token}` });
const docUrl = (ctx: Ctx, target: Target) => (target.kind === 'global' ? `${base(ctx)}/globals/${target.slug}` : `${base(ctx)}/${target.slug}/${encodeURIComponent(String(target.id))}`);
const describe = (target: Target) => (target.kind === 'global' ? `Payload global '${target.slug}'` : `Payload ${target.slug} document ${target.id}`);
const unitPath = (target: { kind: 'collection' | 'global'; slug: string }) => (target.kind === 'global' ? `globals/${target.slug}` : target.slug);

interface LocalePlan {
  source: string;
  /** Parlance tag → Payload locale code, for the target locales the Payload config has. */
  targets: Map<string, string>;
  skipped: string[];
}

/** Each Parlance locale's Payload code: the `locales` setting first, else the same code up to case and `_`/`-`. */
function planLocales(ctx: Ctx): LocalePlan {
  const codes = ctx.settings.payload_locales;
  const source = matchLocales([ctx.sourceLocale], codes, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!source) throw new ConnectorError('config', `The setting \`payload_locales\` (${codes.join(', ')}) has no locale for the project's source locale '${ctx.sourceLocale}'. Name the Payload config's locale codes there, or map it in the \`locales\` setting.`);
  const targets = new Map([...matchLocales(ctx.targetLocales, codes, ctx.settings.locales).codes].filter(([, code]) => code !== source));
  return { source, targets, skipped: ctx.targetLocales.filter((tag) => !targets.has(tag)) };
}

/**
 * Who the credentials are. `GET /api/<auth collection>/me` answers 200 with `user: null` to a key Payload does not
 * know (it does not refuse it: reads the access control allows anyone still work), so an unknown key is said here
 * rather than at the first write.
 */
async function checkCredentials(ctx: Ctx): Promise<void> {
  const what = `Checking the Payload credentials (GET ${ctx.settings.api_route}/${ctx.settings.auth_collection}/me)`;
  const response = await ctx.http.request(`${base(ctx)}/${ctx.settings.auth_collection}/me`, { headers: auth(ctx) });
  if (response.status === 404) {
    await response.body?.cancel();
    throw new ConnectorError('config', `${what}: HTTP 404. Check \`api_url\`, \`api_route\` and that \`auth_collection\` ('${ctx.settings.auth_collection}') is an auth collection.`);
  }
  if (!response.ok) throw await failure(response, what);
  const body = (await response.json().catch(() => null)) as { user?: unknown } | null;
  if (!body || typeof body !== 'object') throw new ConnectorError('config', `${what}: the answer is not Payload's; is api_url a Payload server?`);
  if (!body.user) {
    const which = ctx.secrets.api_key ? `the API key (as \`${ctx.settings.auth_collection} API-Key …\`)` : 'the JWT token';
    throw new ConnectorError('auth', `${what}: Payload did not accept ${which}: no user. Check the key (and that \`auth_collection\` is the collection whose user holds it), then PATCH the connection.`);
  }
}

/** Every document of a collection with all locales of its localized fields, page by page. */
async function readCollection(ctx: Ctx, collection: string): Promise<{ docs: Doc[]; pages: number }> {
  const docs: Doc[] = [];
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) throw new ConnectorError('config', `Payload collection '${collection}' has more than ${MAX_PAGES * PAGE_SIZE} documents; the connector reads at most that many.`);
    const url = `${base(ctx)}/${collection}?locale=all&depth=0&sort=id&limit=${PAGE_SIZE}&page=${page}`;
    const body = await ctx.http.json<PayloadPage>(url, { what: `Listing the Payload collection '${collection}' (page ${page})`, headers: auth(ctx) });
    if (!Array.isArray(body?.docs)) throw new ConnectorError('config', `Listing the Payload collection '${collection}': the answer has no docs list; is '${collection}' a collection slug and api_url a Payload server?`);
    docs.push(...body.docs);
    const more = body.hasNextPage ?? page < (body.totalPages ?? 1);
    if (!more || body.docs.length === 0) return { docs, pages: page };
  }
}

/** The value at a dotted path through groups; undefined when any step is missing. */
function at(doc: Record<string, unknown>, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * A localized field as `locale=all` gives it: each Payload locale's text ('' for none). A plain string is a field that
 * is not localized (writing it would overwrite the source); anything else in a locale is not text.
 */
function localizedTexts(ctx: Ctx, where: string, field: string, value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return null;
  const codes = ctx.settings.payload_locales;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    throw new ConnectorError('config', `${where}: field '${field}' is not localized (locale=all gave one value for every locale), so a translation would overwrite the source. Set \`localized: true\` on it in the Payload config or remove it from the settings.`);
  }
  if (Array.isArray(value) || typeof value !== 'object') throw new ConnectorError('config', `${where}: field '${field}' is not a text field (it holds a list: an array or blocks field). Name only text, textarea, email or code fields.`);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 0 && !keys.some((k) => codes.includes(k))) {
    throw new ConnectorError('config', `${where}: field '${field}' is not a localized text field (locale=all gave an object with ${keys.slice(0, 5).join(', ')}, none of them a locale in \`payload_locales\`: a group, a rich-text field, or a locale code missing from \`payload_locales\`).`);
  }
  const texts: Record<string, string> = {};
  for (const code of codes) {
    const text = record[code];
    if (text === undefined || text === null) texts[code] = '';
    else if (typeof text === 'string') texts[code] = text;
    else throw new ConnectorError('config', `${where}: field '${field}' is not text in locale ${code} (it holds ${Array.isArray(text) ? 'a list' : typeof text}, e.g. Lexical rich text). Name only text, textarea, email or code fields.`);
  }
  return texts;
}

/** A human-readable title of a document for the strings' context: its `title` or `name` in the source locale. */
function titleOf(doc: Doc, source: string): string | undefined {
  for (const name of ['title', 'name']) {
    const value = doc[name];
    if (typeof value === 'string' && value) return value;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const text = (value as Record<string, unknown>)[source];
      if (typeof text === 'string' && text) return text;
    }
  }
  return undefined;
}

function stringsOf(ctx: Ctx, plan: LocalePlan, target: Target, doc: Doc, fields: string[], found: Set<string>): RemoteString[] {
  const strings: RemoteString[] = [];
  const title = titleOf(doc, plan.source);
  for (const field of fields) {
    const texts = localizedTexts(ctx, describe(target), field, at(doc, field));
    if (!texts) continue;
    found.add(field);
    const source = texts[plan.source] ?? '';
    if (!source) continue;
    const seen: Record<string, string> = {};
    for (const [tag, code] of plan.targets) seen[tag] = texts[code] ?? '';
    const maxLength = ctx.settings.max_lengths[`${target.slug}.${field}`];
    const ref: PayloadRef = { ...target, field, updatedAt: typeof doc.updatedAt === 'string' ? doc.updatedAt : null, seen };
    const where = target.kind === 'global' ? `global ${target.slug}` : target.slug;
    strings.push({
      key: target.kind === 'global' ? field : `${target.id}.${field}`,
      source,
      context: title && field !== 'title' && field !== 'name' ? `${where}: ${title} (${field})` : `${where} (${field})`,
      ...(maxLength ? { maxLength } : {}),
      ref: ref as unknown as JsonValue,
      translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
    });
  }
  return strings;
}

async function list(ctx: Ctx) {
  const plan = planLocales(ctx);
  await checkCredentials(ctx);
  const units: StringUnit[] = [];
  const notes: string[] = [];
  let pages = 0;
  let documents = 0;
  const unfound: string[] = [];
  for (const [collection, fields] of Object.entries(ctx.settings.collections)) {
    const read = await readCollection(ctx, collection);
    pages += read.pages;
    documents += read.docs.length;
    const found = new Set<string>();
    const strings: RemoteString[] = [];
    for (const doc of read.docs) {
      if (doc.id === undefined || doc.id === null) throw new ConnectorError('config', `Listing the Payload collection '${collection}': a document has no id.`);
      strings.push(...stringsOf(ctx, plan, { kind: 'collection', slug: collection, id: doc.id }, doc, fields, found));
    }
    if (read.docs.length) unfound.push(...fields.filter((f) => !found.has(f)).map((f) => `${collection}.${f}`));
    units.push({ kind: 'strings', path: unitPath({ kind: 'collection', slug: collection }), strings, locales: [...plan.targets.keys()] });
  }
  for (const [global, fields] of Object.entries(ctx.settings.globals)) {
    const target: Target = { kind: 'global', slug: global };
    const doc = await ctx.http.json<Doc>(`${docUrl(ctx, target)}?locale=all&depth=0`, { what: `Reading the Payload global '${global}'`, headers: auth(ctx) });
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new ConnectorError('config', `Reading the Payload global '${global}': the answer is not a document.`);
    const found = new Set<string>();
    units.push({ kind: 'strings', path: unitPath(target), strings: stringsOf(ctx, plan, target, doc, fields, found), locales: [...plan.targets.keys()] });
    unfound.push(...fields.filter((f) => !found.has(f)).map((f) => `globals/${global}.${f}`));
  }
  notes.push(`Read ${documents} document(s) in ${pages} page(s) from ${Object.keys(ctx.settings.collections).length} collection(s) and ${Object.keys(ctx.settings.globals).length} global(s), source locale ${plan.source}.`);
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: not in \`payload_locales\` (Payload locales are added in its config, not over the API).`);
  if (unfound.length) notes.push(`No document has a value for field(s) ${unfound.slice(0, 10).join(', ')}: check the names in the settings.`);
  return { units, note: notes.join(' ') };
}

function readRef(write: StringWrite): PayloadRef {
  const ref = write.ref as unknown as PayloadRef | undefined;
  const ok = ref && typeof ref.slug === 'string' && typeof ref.field === 'string' && typeof ref.seen === 'object' && (ref.kind === 'global' || (ref.kind === 'collection' && (typeof ref.id === 'string' || typeof ref.id === 'number')));
  if (!ok) throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Payload: the string carries no Payload reference; sync again so it is listed anew.`);
  return ref;
}

/** `{ a: { b: text } }` for the path `a.b`, merged into `data`: Payload merges a partial group with what the document holds. */
function setAt(data: Record<string, unknown>, path: string, text: string): void {
  const parts = path.split('.');
  let node = data;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = (node[part] = next && typeof next === 'object' ? next : {}) as Record<string, unknown>;
  }
  node[parts.at(-1)!] = text;
}

/** A document with all locales now, or null when it was deleted (404). */
async function readNow(ctx: Ctx, target: Target): Promise<Doc | null> {
  const what = `Reading ${describe(target)}`;
  const response = await ctx.http.request(`${docUrl(ctx, target)}?locale=all&depth=0`, { headers: auth(ctx) });
  if (response.status === 404 && target.kind === 'collection') {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, what);
  return (await response.json()) as Doc;
}

interface DocResult {
  written: number;
  kept: string[];
  deleted: boolean;
}

/** Writes one document's translations, one request per locale, leaving any value a person changed since the listing. */
async function writeDoc(ctx: Ctx, plan: LocalePlan, target: Target, writes: { write: StringWrite; ref: PayloadRef }[]): Promise<DocResult> {
  const now = await readNow(ctx, target);
  if (!now) return { written: 0, kept: [], deleted: true };
  const byCode = new Map<string, Record<string, unknown>>();
  const kept: string[] = [];
  let written = 0;
  for (const { write, ref } of writes) {
    const code = plan.targets.get(write.locale)!;
    const texts = localizedTexts(ctx, describe(target), ref.field, at(now, ref.field));
    const current = texts?.[code] ?? '';
    if (current === write.text) continue;
    // Nobody saved the document since the listing when its updatedAt has not moved; else a value unlike the listed
    // one is a person's edit, and it stays.
    const saved = ref.updatedAt === null || now.updatedAt !== ref.updatedAt;
    if (saved && current !== (ref.seen[write.locale] ?? '')) {
      kept.push(`${target.kind === 'global' ? `globals/${target.slug}.` : `${target.slug}/${target.id}.`}${ref.field} (${write.locale})`);
      continue;
    }
    const data = byCode.get(code) ?? {};
    setAt(data, ref.field, write.text);
    byCode.set(code, data);
    written++;
  }
  for (const [code, data] of byCode) {
    await ctx.http.json(`${docUrl(ctx, target)}?locale=${encodeURIComponent(code)}&depth=0`, {
      what: `Writing ${describe(target)} (locale ${code})`,
      method: target.kind === 'global' ? 'POST' : 'PATCH',
      headers: { ...auth(ctx), 'content-type': 'application/json' },
      body: JSON.stringify(data),
    });
  }
  return { written, kept, deleted: false };
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = planLocales(ctx);
  const groups = new Map<string, { target: Target; writes: { write: StringWrite; ref: PayloadRef }[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    // A project locale not in `payload_locales` (the listing said so) has nowhere to go.
    if (!plan.targets.has(one.locale)) {
      absent.add(one.locale);
      continue;
    }
    const target: Target = ref.kind === 'global' ? { kind: 'global', slug: ref.slug } : { kind: 'collection', slug: ref.slug, id: ref.id };
    const id = ref.kind === 'global' ? `g\u0000${ref.slug}` : `c\u0000${ref.slug}\u0000${ref.id}`;
    const group = groups.get(id) ?? { target, writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  let written = 0;
  const kept: string[] = [];
  const deleted: string[] = [];
  for (const { target, writes } of groups.values()) {
    const result = await writeDoc(ctx, plan, target, writes);
    written += result.written;
    kept.push(...result.kept);
    if (result.deleted) deleted.push(describe(target));
  }
  const notes: string[] = [];
  if (kept.length) notes.push(`Left ${kept.length} value(s) a person changed in Payload since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (deleted.length) notes.push(`Not written: ${deleted.slice(0, 10).join(', ')} ${deleted.length === 1 ? 'was' : 'were'} deleted in Payload since the listing (HTTP 404); the next sync drops ${deleted.length === 1 ? 'its' : 'their'} strings.`);
  if (absent.size) notes.push(`Not written: \`payload_locales\` has no locale for ${[...absent].join(', ')}.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/**
 * The set-up guide's afterChange hook POSTs `{ collection | global, id, operation, updatedAt }` signed with the webhook
 * secret in X-Parlance-Signature; a change to a collection or global the connection does not translate starts no sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: PayloadSettings): WebhookVerdict {
  const checked = verifyParlanceSignature(request.headers.get('x-parlance-signature'), webhookSecret, request.body);
  if (!checked.ok) return { verified: false, sync: false, reason: `Payload hook: ${checked.reason}` };
  let event: { collection?: unknown; global?: unknown };
  try {
    event = JSON.parse(new TextDecoder().decode(request.body)) as typeof event;
  } catch {
    return { verified: true, sync: true };
  }
  if (typeof event.collection === 'string' && !(event.collection in settings.collections)) return { verified: true, sync: false, reason: `The Payload change is to collection '${event.collection}', which this connection does not translate.` };
  if (typeof event.global === 'string' && !(event.global in settings.globals)) return { verified: true, sync: false, reason: `The Payload change is to global '${event.global}', which this connection does not translate.` };
  return { verified: true, sync: true };
}

export const payload: Connector<PayloadSettings, PayloadSecrets> = {
  id: 'payload',
  name: 'Payload CMS',
  category: 'content',
  direction: 'two_way',
  summary: "Payload CMS 3 collections and globals through the REST API and field-level localization: chosen localized text fields are translated and written back into each locale with PATCH ?locale=.",
  settings: PayloadSettings,
  secrets: PayloadSecrets,
  webhooks: 'Payload sends no webhooks of its own: an afterChange hook (set-up guide) POSTs with X-Parlance-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>"> using the webhook secret, five minutes\' tolerance.',
  list,
  write,
  verifyWebhook,
};
