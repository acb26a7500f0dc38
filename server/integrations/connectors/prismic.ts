/**
 * Prismic as a two-way content connector. Reads go through the Document (Content) API: the repository endpoint
 * `https://{repo}.cdn.prismic.io/api/v2` for the refs and languages, then `/documents/search?ref=…&lang=*` page by
 * page. Writes go through the Migration API (`https://migration.prismic.io/documents`, headers `repository`,
 * `Authorization: Bearer <write token>` and `x-api-key`): a missing translation is created with `POST /documents`
 * (`lang` and `alternate_language_id` of the master-language document), an existing one updated with
 * `PUT /documents/{id}`. Prismic keeps each language as its own document linked through `alternate_languages`.
 *
 * What is synced: the top-level Key Text fields and the text blocks (headings, paragraphs, list items) of the Title and
 * Rich Text fields named in the `fields` setting, of the master-language documents. A Key Text field is one string
 * (key `<document id>.<field>`); a Title or Rich Text field gives one string per text block (`<id>.<field>.<index>`).
 * A block with formatting (spans: bold, links) is left out and counted in the sync log: its spans index characters of
 * the source text and cannot be carried over to a translation. One unit (path) per custom type.
 *
 * Writes are drafts in Prismic's migration release (Parlance never publishes). The listing reads through the release
 * named in the `release` setting, else a release labelled "Migration…", else the master ref, so that drafts Parlance
 * wrote are seen by the next sync. Before each write the documents are read again, so a translation a person changed
 * since the listing is left alone (and imported by the next sync as a human translation).
 *
 * Rate limits: the Migration API takes about one request per second per repository, so writes are paced
 * (`write_interval_ms`, default 1000); a 429 is waited out by its Retry-After (connector-http).
 *
 * Webhooks: Prismic puts the webhook's configured secret in the JSON body's `secret` field (no signature, no time),
 * compared in constant time; `api-update` notifications start a sync, `test-trigger` ones are accepted and do nothing.
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** The Content API's largest page. */
const PAGE_SIZE = 100;
/** At most this many documents are read in one listing (200 pages of 100). */
const MAX_DOCUMENTS = 20_000;
/** Ids per `in(document.id, …)` query on the fresh read before a write. */
const IDS_PER_QUERY = 50;
const TEXT_BLOCKS = new Set(['heading1', 'heading2', 'heading3', 'heading4', 'heading5', 'heading6', 'paragraph', 'preformatted', 'list-item', 'o-list-item']);
const API_ID = /^[a-z0-9_-]+$/i;

const settings = z
  .object({
    repository: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, "Expected the repository's name as in https://{name}.prismic.io (lowercase letters, digits and hyphens).")
      .openapi({ description: 'The repository name, as in `https://{repository}.prismic.io`.' }),
    api_url: z.string().url().optional().openapi({ description: 'The repository API endpoint. Default `https://{repository}.cdn.prismic.io/api/v2`.' }),
    migration_url: z.string().url().default('https://migration.prismic.io').openapi({ description: 'The Migration API. Default `https://migration.prismic.io`.' }),
    fields: z.array(z.string().regex(API_ID, "Expected a field's API ID such as 'title'.")).min(1).openapi({ description: 'API IDs of the top-level Key Text, Title and Rich Text fields to translate: `["title", "description"]`.' }),
    types: z.array(z.string().regex(API_ID, "Expected a custom type's API ID such as 'page'.")).min(1).optional().openapi({ description: 'Custom type API IDs to translate; every type when absent.' }),
    release: z.string().min(1).optional().openapi({ description: "The release (its label or id) to read through, so Parlance's drafts are seen. Default: the release labelled Migration…, else the master ref." }),
    locales: z.record(z.string(), z.string().min(1)).optional().openapi({ description: 'A Parlance locale → Prismic language code (`{"de": "de-ch"}`), where the automatic match (`de` → the one `de-*` language) does not do.' }),
    write_interval_ms: z.number().int().min(0).max(60_000).default(1000).openapi({ description: 'The pause between two Migration API requests. Default 1000 (Prismic allows one request per second per repository).' }),
  })
  .strict();

const secrets = z
  .object({
    access_token: z.string().min(1).optional().openapi({ description: 'A Content API access token (Settings → API & Security), needed when the repository or its releases are private.' }),
    write_token: z.string().min(1).openapi({ description: 'A write API token (Settings → API & Security → Write APIs), sent as Bearer to the Migration API.' }),
    migration_api_key: z.string().min(1).openapi({ description: "The Migration API key, sent as `x-api-key`." }),
  })
  .strict();

export type PrismicSettings = z.infer<typeof settings>;
export type PrismicSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<PrismicSettings, PrismicSecrets>;

const repositorySchema = z.object({
  refs: z.array(z.object({ id: z.string(), ref: z.string(), label: z.string().optional(), isMasterRef: z.boolean().optional() })),
  languages: z.array(z.object({ id: z.string(), name: z.string().optional(), is_master: z.boolean().optional() })),
});
const documentSchema = z.object({
  id: z.string(),
  uid: z.string().nullish(),
  type: z.string(),
  lang: z.string(),
  tags: z.array(z.string()).default([]),
  alternate_languages: z.array(z.object({ id: z.string(), lang: z.string() }).loose()).default([]),
  data: z.record(z.string(), z.unknown()).default({}),
});
const searchSchema = z.object({ page: z.number(), total_pages: z.number(), results: z.array(documentSchema) });
type Doc = z.infer<typeof documentSchema>;

/** What `write` needs of a listed string: its document, field and block, and each locale's code and value at the listing. */
const refSchema = z.object({ doc: z.string(), field: z.string(), block: z.number().optional(), remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })) });
type Ref = z.infer<typeof refSchema>;

const apiUrl = (s: PrismicSettings) => (s.api_url ?? `https://${s.repository}.cdn.prismic.io/api/v2`).replace(/\/+$/, '');
const where = (s: PrismicSettings) => `Prismic repository '${s.repository}'`;

function withToken(ctx: Ctx, url: URL): string {
  if (ctx.secrets.access_token) url.searchParams.set('access_token', ctx.secrets.access_token);
  return url.toString();
}

async function getJson<T extends z.ZodType>(ctx: Ctx, url: URL, schema: T, what: string): Promise<z.infer<T>> {
  const body = await ctx.http.json<unknown>(withToken(ctx, url), { what });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer from ${url.host} is not a Prismic Content API answer (${parsed.error.issues[0]?.message}). Check the connection's api_url.`);
  return parsed.data;
}

interface Repo {
  ref: string;
  refLabel: string;
  master: string;
  codes: Map<string, string>;
  missing: string[];
}

/** The repository's ref to read and its languages matched to the project's targets. */
async function repository(ctx: Ctx): Promise<Repo> {
  const s = ctx.settings;
  const repo = await getJson(ctx, new URL(apiUrl(s)), repositorySchema, `Reading the refs and languages of ${where(s)}`);
  let chosen = s.release ? repo.refs.find((r) => !r.isMasterRef && (r.label === s.release || r.id === s.release)) : undefined;
  if (s.release && !chosen) {
    const releases = repo.refs.filter((r) => !r.isMasterRef).map((r) => `'${r.label ?? r.id}'`);
    throw new ConnectorError('config', `The release setting names '${s.release}', which ${where(s)} does not show (releases: ${releases.join(', ') || 'none'}; a private release needs the access_token secret).`);
  }
  chosen ??= repo.refs.find((r) => !r.isMasterRef && /^migration/i.test(r.label ?? '')) ?? repo.refs.find((r) => r.isMasterRef);
  if (!chosen) throw new ConnectorError('config', `${where(s)} shows no master ref.`);
  const master = (repo.languages.find((l) => l.is_master) ?? repo.languages[0])?.id;
  if (!master) throw new ConnectorError('config', `${where(s)} has no languages.`);
  const others = repo.languages.map((l) => l.id).filter((id) => id !== master);
  const matched = matchLocales(ctx.targetLocales, others, s.locales);
  // Prismic's languages carry a region (de-de): a bare target (de) takes the one language of its family, if just one.
  const missing: string[] = [];
  for (const target of matched.missing) {
    const family = others.filter((code) => code.toLowerCase().split(/[-_]/)[0] === target.toLowerCase() && ![...matched.codes.values()].includes(code));
    if (!s.locales?.[target] && !target.includes('-') && family.length === 1) matched.codes.set(target, family[0]!);
    else missing.push(target);
  }
  return { ref: chosen.ref, refLabel: chosen.isMasterRef ? 'master' : (chosen.label ?? chosen.id), master, codes: matched.codes, missing };
}

function searchUrl(ctx: Ctx, ref: string, page: number, q?: string): URL {
  const url = new URL(`${apiUrl(ctx.settings)}/documents/search`);
  url.searchParams.set('ref', ref);
  url.searchParams.set('lang', '*');
  url.searchParams.set('pageSize', String(PAGE_SIZE));
  url.searchParams.set('page', String(page));
  if (q) url.searchParams.set('q', q);
  return url;
}

/** Every document a query finds, page by page, bounded by MAX_DOCUMENTS. */
async function search(ctx: Ctx, ref: string, q: string | undefined, what: string): Promise<{ docs: Doc[]; pages: number }> {
  const docs: Doc[] = [];
  for (let page = 1; ; page++) {
    const body = await getJson(ctx, searchUrl(ctx, ref, page, q), searchSchema, what);
    docs.push(...body.results);
    if (docs.length > MAX_DOCUMENTS) throw new ConnectorError('config', `${what}: more than ${MAX_DOCUMENTS} documents; narrow the connection's types setting.`);
    if (page >= body.total_pages || body.results.length === 0) return { docs, pages: page };
  }
}

const quoted = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(',')}]`;

/** A rich text block's text, when it is a plain text block (no spans). */
function plainBlock(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const b = block as { type?: unknown; text?: unknown; spans?: unknown };
  if (typeof b.type !== 'string' || !TEXT_BLOCKS.has(b.type) || typeof b.text !== 'string') return undefined;
  if (Array.isArray(b.spans) && b.spans.length > 0) return undefined;
  return b.text;
}

/** The value of a field (and block) in a document's data: '' when there is none. */
function valueAt(data: Record<string, unknown> | undefined, field: string, block: number | undefined): string {
  const value = data?.[field];
  if (block === undefined) return typeof value === 'string' ? value : '';
  if (!Array.isArray(value)) return '';
  const b = value[block] as { text?: unknown } | undefined;
  return typeof b?.text === 'string' ? b.text : '';
}

function documentStrings(ctx: Ctx, doc: Doc, translations: Map<string, Doc>, codes: Map<string, string>, skipped: { formatted: number }): RemoteString[] {
  const context = `${doc.type}: ${doc.uid ?? doc.id}`;
  const byLocale = new Map<string, Doc | undefined>();
  for (const [locale, code] of codes) {
    const alternate = doc.alternate_languages.find((a) => a.lang === code);
    byLocale.set(locale, alternate ? translations.get(alternate.id) : undefined);
  }
  const strings: RemoteString[] = [];
  const add = (field: string, block: number | undefined, source: string, kind: string) => {
    if (source.trim() === '') return;
    const remote: Ref['remote'] = {};
    const held: Record<string, string> = {};
    for (const [locale, code] of codes) {
      const seen = valueAt(byLocale.get(locale)?.data, field, block);
      remote[locale] = { code, seen };
      if (seen !== '') held[locale] = seen;
    }
    strings.push({
      key: block === undefined ? `${doc.id}.${field}` : `${doc.id}.${field}.${block}`,
      source,
      context,
      notes: `Prismic ${kind} field '${field}'${block === undefined ? '' : `, block ${block + 1}`}`,
      ref: { doc: doc.id, field, ...(block === undefined ? {} : { block }), remote } satisfies Ref as JsonValue,
      translations: held,
    });
  };
  for (const field of ctx.settings.fields) {
    const value = doc.data[field];
    if (typeof value === 'string') add(field, undefined, value, 'Key Text');
    else if (Array.isArray(value)) {
      value.forEach((block, index) => {
        const text = plainBlock(block);
        if (text === undefined) {
          if (typeof (block as { text?: unknown } | null)?.text === 'string') skipped.formatted++;
          return;
        }
        add(field, index, text, value.length === 1 ? 'Title' : 'Rich Text');
      });
    }
  }
  return strings;
}

async function list(ctx: Ctx) {
  const s = ctx.settings;
  const repo = await repository(ctx);
  const q = s.types ? `[[any(document.type,${quoted(s.types)})]]` : undefined;
  const { docs, pages } = await search(ctx, repo.ref, q, `Listing the documents of ${where(s)}`);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const units = new Map<string, StringUnit>();
  const skipped = { formatted: 0 };
  let sources = 0;
  for (const doc of docs) {
    if (doc.lang !== repo.master) continue;
    sources++;
    const unit = units.get(doc.type) ?? { kind: 'strings' as const, path: doc.type, locales: [...repo.codes.keys()], strings: [] };
    units.set(doc.type, unit);
    unit.strings.push(...documentStrings(ctx, doc, byId, repo.codes, skipped));
  }
  const notes = [
    `${sources} ${repo.master} documents of ${units.size} types (${docs.length} in all languages) in ${pages} pages, read through ${repo.refLabel === 'master' ? 'the master ref' : `release '${repo.refLabel}'`}`,
    repo.missing.length > 0 ? `${repo.missing.join(', ')} not a language of the repository, skipped (add it under Settings → Translations & locales, or map it with the locales setting)` : '',
    skipped.formatted > 0 ? `${skipped.formatted} rich text blocks with formatting (spans) left out` : '',
  ].filter(Boolean);
  return { units: [...units.values()], note: `${notes.join('; ')}.` };
}

/** Reads documents again by id (fresh values before a write). */
async function freshRead(ctx: Ctx, ref: string, ids: string[]): Promise<Map<string, Doc>> {
  const found = new Map<string, Doc>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const chunk = ids.slice(i, i + IDS_PER_QUERY);
    const { docs } = await search(ctx, ref, `[[in(document.id,${quoted(chunk)})]]`, `Reading ${chunk.length} documents of ${where(ctx.settings)} again before writing`);
    for (const doc of docs) found.set(doc.id, doc);
  }
  return found;
}

/** Migration API requests, paced to the vendor's one request per second. */
function migration(ctx: Ctx) {
  let last = 0;
  const base = ctx.settings.migration_url.replace(/\/+$/, '');
  return async (method: 'POST' | 'PUT', path: string, body: unknown, what: string): Promise<unknown> => {
    const wait = last + ctx.settings.write_interval_ms - Date.now();
    if (last > 0 && wait > 0) await sleep(wait, ctx.signal);
    try {
      return await ctx.http.json<unknown>(`${base}${path}`, {
        what,
        method,
        headers: { authorization: `Bearer ${ctx.secrets.write_token}`, 'x-api-key': ctx.secrets.migration_api_key, repository: ctx.settings.repository, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } finally {
      last = Date.now();
    }
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });
}

/** Sets a field's (or block's) text in a copy of `data`. */
function setValue(data: Record<string, unknown>, field: string, block: number | undefined, text: string): void {
  if (block === undefined) {
    data[field] = text;
    return;
  }
  const blocks = Array.isArray(data[field]) ? [...(data[field] as unknown[])] : [];
  const existing = (blocks[block] ?? { type: 'paragraph' }) as Record<string, unknown>;
  blocks[block] = { ...existing, text, spans: [] };
  data[field] = blocks;
}

/** A new translation's data: the master's, with the translated fields emptied (text blocks blank) until written. */
function blankTranslation(source: Doc, fields: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = structuredClone(source.data);
  for (const field of fields) {
    const value = data[field];
    if (typeof value === 'string') data[field] = null;
    else if (Array.isArray(value)) data[field] = value.map((block) => (typeof (block as { text?: unknown } | null)?.text === 'string' ? { ...(block as object), text: '', spans: [] } : block));
  }
  return data;
}

const displayTitle = (doc: Doc, data: Record<string, unknown>, fields: readonly string[], lang: string) => {
  for (const field of fields) {
    const text = valueAt(data, field, typeof data[field] === 'string' ? undefined : 0);
    if (text) return text.slice(0, 200);
  }
  return `${doc.uid ?? doc.id} (${lang})`;
};

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const s = ctx.settings;
  const groups = new Map<string, { doc: string; locale: string; code: string; rows: { write: StringWrite; ref: Ref }[] }>();
  const unplaced: string[] = [];
  for (const w of writeBack.strings) {
    const ref = refSchema.safeParse(w.ref);
    const remote = ref.success ? ref.data.remote[w.locale] : undefined;
    if (!ref.success || !remote) {
      unplaced.push(`${w.key} (${w.locale})`);
      continue;
    }
    const id = `${ref.data.doc}\n${w.locale}`;
    const group = groups.get(id) ?? { doc: ref.data.doc, locale: w.locale, code: remote.code, rows: [] };
    group.rows.push({ write: w, ref: ref.data });
    groups.set(id, group);
  }
  if (groups.size === 0) return { written: 0, ...(unplaced.length > 0 ? { note: `No Prismic language or document for: ${unplaced.join(', ')}.` } : {}) };

  const repo = await repository(ctx);
  const masters = await freshRead(ctx, repo.ref, [...new Set([...groups.values()].map((g) => g.doc))]);
  const alternates = [...masters.values()].flatMap((d) => d.alternate_languages.map((a) => a.id));
  const translations = alternates.length > 0 ? await freshRead(ctx, repo.ref, [...new Set(alternates)]) : new Map<string, Doc>();
  const send = migration(ctx);
  const kept: string[] = [];
  const gone = new Set<string>();
  let written = 0;
  let created = 0;
  for (const group of groups.values()) {
    const master = masters.get(group.doc);
    if (!master) {
      gone.add(group.doc);
      continue;
    }
    const alternate = master.alternate_languages.find((a) => a.lang === group.code);
    const existing = alternate ? translations.get(alternate.id) : undefined;
    const data = existing ? structuredClone(existing.data) : blankTranslation(master, s.fields);
    let changed = 0;
    for (const { write: w, ref } of group.rows) {
      const now = valueAt(existing?.data, ref.field, ref.block);
      if (now === w.text) continue;
      // A value someone wrote after the listing is theirs; the next sync imports it.
      if (now !== ref.remote[group.locale]!.seen) {
        kept.push(`${w.key} (${group.code})`);
        continue;
      }
      setValue(data, ref.field, ref.block, w.text);
      changed++;
    }
    if (changed === 0) continue;
    const title = displayTitle(master, data, s.fields, group.code);
    if (existing) {
      await send('PUT', `/documents/${encodeURIComponent(existing.id)}`, { title, ...(existing.uid ? { uid: existing.uid } : {}), tags: existing.tags, data }, `Updating the ${group.code} translation '${existing.id}' of document '${master.id}' in ${where(s)} (Migration API)`);
    } else {
      await send('POST', '/documents', { title, type: master.type, ...(master.uid ? { uid: master.uid } : {}), lang: group.code, alternate_language_id: master.id, tags: master.tags, data }, `Creating the ${group.code} translation of document '${master.id}' in ${where(s)} (Migration API)`);
      created++;
    }
    written += changed;
  }
  const notes = [
    created > 0 ? `${created} translations created as drafts in the migration release (publish them in Prismic).` : '',
    kept.length > 0 ? `Not overwritten, changed in Prismic since the listing: ${kept.join(', ')}.` : '',
    gone.size > 0 ? `Documents no longer in ${where(s)}, skipped: ${[...gone].join(', ')}.` : '',
    unplaced.length > 0 ? `No Prismic language or document for: ${unplaced.join(', ')}.` : '',
  ].filter(Boolean);
  return { written, url: `https://${s.repository}.prismic.io/builder/migration`, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

const webhookBody = z.object({ type: z.string().optional(), secret: z.string().optional(), domain: z.string().optional(), documents: z.array(z.string()).optional() }).loose();

/** Prismic's webhook: the configured secret is in the body's `secret`; `api-update` is a content change. */
function verifyWebhook(request: WebhookRequest, secret: string, s: PrismicSettings): WebhookVerdict {
  let body: z.infer<typeof webhookBody>;
  try {
    const parsed = webhookBody.safeParse(JSON.parse(new TextDecoder().decode(request.body)));
    if (!parsed.success) return { verified: false, sync: false, reason: 'The body is not a Prismic webhook payload.' };
    body = parsed.data;
  } catch {
    return { verified: false, sync: false, reason: 'The body is not JSON; Prismic sends its webhook payload as JSON.' };
  }
  if (body.secret === undefined) return { verified: false, sync: false, reason: "The payload has no secret: set the webhook's Secret in Prismic to the connection's webhook secret." };
  if (!sameSecret(body.secret, secret)) return { verified: false, sync: false, reason: "The payload's secret does not match the connection's webhook secret." };
  if (body.domain && body.domain !== s.repository) return { verified: true, sync: false, reason: `The notification is about repository '${body.domain}', not '${s.repository}'.` };
  if (body.type !== 'api-update') return { verified: true, sync: false, reason: `Notification type '${body.type ?? '(none)'}' changes no content.` };
  return { verified: true, sync: true };
}

export const prismic: Connector<PrismicSettings, PrismicSecrets> = {
  id: 'prismic',
  name: 'Prismic',
  category: 'content',
  direction: 'two_way',
  summary: "Prismic documents' Key Text, Title and Rich Text fields named in the settings, one path per custom type, translations written back as drafts of each language's document through the Migration API.",
  settings,
  secrets,
  webhooks: "The webhook's Secret, which Prismic sends in the JSON body's `secret` field, equal to the connection's webhook secret (compared in constant time); api-update notifications start a sync",
  list,
  write,
  verifyWebhook,
};
