/**
 * Sanity as a two-way content connector, through the HTTP API (GROQ query, doc and mutate endpoints), with
 * field-level localization: a translatable field holds an object keyed by language id
 * (`{ _type: 'localeString', en: 'Hello', de: 'Hallo' }`), the field-level pattern of Sanity's localization guide.
 * Document-level localization (`@sanity/document-internationalization`, one document per language linked by a
 * `translation.metadata` document) and internationalized arrays are not supported.
 *
 * Sanity keeps the schema in the Studio's code, not in the Content Lake, so the API cannot say which fields are
 * translatable, what they are called or how long they may be: the `fields` setting names them, the `languages`
 * setting lists the language ids the locale objects have (the first is the source), and strings carry no notes and
 * no length limit. Only published documents are read and written; a draft open at the time keeps its own copy, and
 * publishing it later replaces the translations written meanwhile (publish or discard drafts before a sync).
 *
 * Listing query (GROQ, cursor-paginated by `_id`, stopping at an empty page):
 *   *[_type in $types && !(_id in path("drafts.**")) && _id > $after] | order(_id) [0...$limit]
 * Write: one `patch` per document with `ifRevisionID` = the `_rev` just read and `set: {"<field>.<lang>": text}`.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const settings = z
  .object({
    project_id: z.string().regex(/^[a-z0-9-]+$/, 'a Sanity project id such as `q3v8x2mp`').openapi({ description: 'The project id (sanity.io/manage, or `projectId` in sanity.config.ts).' }),
    dataset: z.string().regex(/^[a-z0-9_-]+$/).default('production').openapi({ description: 'The dataset. Default `production`.' }),
    api_version: z.string().regex(/^v\d{4}-\d{2}-\d{2}$/, 'a dated API version such as `v2024-06-01`').default('v2024-06-01').openapi({ description: 'The HTTP API version, `vYYYY-MM-DD`. Default `v2024-06-01`.' }),
    api_host: z.string().url().optional().openapi({ description: 'The API host; default `https://<project_id>.api.sanity.io`.' }),
    document_types: z.array(z.string().min(1)).min(1).openapi({ description: 'The document types (`_type`) to translate, e.g. `["article", "page"]`.' }),
    fields: z
      .array(z.string().refine((path) => path.split('.').every((part) => IDENTIFIER.test(part)), 'a field name or a dotted path of field names (`title`, `seo.description`)'))
      .min(1)
      .openapi({ description: 'The translatable fields: names (or dotted paths into objects) of fields holding a locale object such as `{ "_type": "localeString", "en": "…", "de": "…" }`.' }),
    languages: z.array(z.string().regex(IDENTIFIER, 'a language id such as `en` or `pt_BR`')).min(1).openapi({ description: 'The language ids your locale object types define, the source language first, e.g. `["en", "de", "fr"]`.' }),
    locales: z.record(z.string(), z.string().min(1)).optional().openapi({ description: 'A Parlance locale → Sanity language id, where they differ beyond case and `_`/`-` (`{"de": "de_DE"}`).' }),
  })
  .strict();

const secrets = z
  .object({
    token: z.string().min(1).openapi({ description: 'A project API token with the Editor role (sanity.io/manage → API → Tokens).' }),
  })
  .strict();

export type SanitySettings = z.infer<typeof settings>;
export type SanitySecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<SanitySettings, SanitySecrets>;

/** The listing query; its parameters are `$types`, `$after` (the last `_id` read) and `$limit`. */
const LIST_QUERY = '*[_type in $types && !(_id in path("drafts.**")) && _id > $after] | order(_id) [0...$limit]';
const PAGE = 100;
/** How old a signed notification may be before it is taken for a replay. */
const WEBHOOK_MAX_AGE_MS = 5 * 60_000;

const documentSchema = z.object({ _id: z.string(), _rev: z.string(), _type: z.string() }).catchall(z.unknown());
type SanityDocument = z.infer<typeof documentSchema>;
const queryAnswer = z.object({ result: z.array(documentSchema) });
const docAnswer = z.object({ documents: z.array(documentSchema) });

const refSchema = z.object({ id: z.string(), field: z.string(), remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })) });
type Ref = z.infer<typeof refSchema>;

const host = (s: SanitySettings) => (s.api_host ?? `https://${s.project_id}.api.sanity.io`).replace(/\/+$/, '');
const dataUrl = (s: SanitySettings, endpoint: 'query' | 'doc' | 'mutate') => `${host(s)}/${s.api_version}/data/${endpoint}/${encodeURIComponent(s.dataset)}`;
const authHeaders = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.secrets.token}` });
const where = (s: SanitySettings) => `Sanity project '${s.project_id}' (dataset '${s.dataset}')`;

async function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string): Promise<z.infer<T>> {
  const body = await ctx.http.json<unknown>(url, { what, headers: authHeaders(ctx) });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer from ${new URL(url).host} is not a Sanity HTTP API answer (${parsed.error.issues[0]?.message}). Check the connection's api_host.`);
  return parsed.data;
}

function at(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const localeObject = (value: unknown): Record<string, unknown> | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/** The document's title for the translator: a plain `title`/`name`, or the source text of a localized one. */
function titleOf(doc: SanityDocument, source: string): string {
  for (const name of ['title', 'name']) {
    const value = doc[name];
    if (typeof value === 'string') return value;
    const text = textOf(localeObject(value)?.[source]);
    if (text) return text;
  }
  return '';
}

function documentStrings(doc: SanityDocument, fields: string[], source: string, codes: Map<string, string>): RemoteString[] {
  const title = titleOf(doc, source);
  const strings: RemoteString[] = [];
  for (const field of fields) {
    const values = localeObject(at(doc, field));
    const text = textOf(values?.[source]);
    if (!values || text === '') continue;
    const translations: Record<string, string> = {};
    const remote: Ref['remote'] = {};
    for (const [locale, code] of codes) {
      const seen = textOf(values[code]);
      remote[locale] = { code, seen };
      if (seen !== '') translations[locale] = seen;
    }
    strings.push({
      key: `${doc._id}.${field}`,
      source: text,
      context: title ? `${doc._type}: ${title}` : doc._type,
      ref: { id: doc._id, field, remote } satisfies Ref as JsonValue,
      translations,
    });
  }
  return strings;
}

/** Every published document of the types, a page at a time after the last `_id` read, until a page comes back empty. */
async function readDocuments(ctx: Ctx): Promise<{ documents: SanityDocument[]; pages: number }> {
  const documents: SanityDocument[] = [];
  let pages = 0;
  for (;;) {
    const url = new URL(dataUrl(ctx.settings, 'query'));
    url.searchParams.set('query', LIST_QUERY);
    url.searchParams.set('$types', JSON.stringify(ctx.settings.document_types));
    url.searchParams.set('$after', JSON.stringify(documents.at(-1)?._id ?? ''));
    url.searchParams.set('$limit', String(PAGE));
    const { result } = await getJson(ctx, url.toString(), queryAnswer, `Querying the documents of ${where(ctx.settings)}`);
    pages++;
    if (result.length === 0) return { documents, pages };
    documents.push(...result);
  }
}

async function list(ctx: Ctx) {
  const [source, ...others] = ctx.settings.languages;
  const { codes, missing } = matchLocales(ctx.targetLocales, others, ctx.settings.locales);
  const { documents, pages } = await readDocuments(ctx);
  const units: StringUnit[] = ctx.settings.document_types.map((type) => ({
    kind: 'strings',
    path: type,
    locales: [...codes.keys()],
    strings: documents.filter((doc) => doc._type === type).flatMap((doc) => documentStrings(doc, ctx.settings.fields, source!, codes)),
  }));
  const skipped = missing.length > 0 ? `; ${missing.join(', ')} not among the languages setting, skipped` : '';
  return { units, note: `${documents.length} documents in ${pages} pages; source language ${source}${skipped}.` };
}

interface Outcome {
  written: number;
  kept: string[];
  gone: string[];
}

/** One document: a fresh read, the values still as listed, one revision-guarded patch. */
async function writeDocument(ctx: Ctx, id: string, writes: { write: StringWrite; ref: Ref }[], outcome: Outcome): Promise<'done' | 'conflict'> {
  const { documents } = await getJson(ctx, `${dataUrl(ctx.settings, 'doc')}/${encodeURIComponent(id)}`, docAnswer, `Reading document '${id}' of ${where(ctx.settings)}`);
  const doc = documents[0];
  if (!doc) {
    outcome.gone.push(id);
    return 'done';
  }
  const set: Record<string, string> = {};
  const kept: string[] = [];
  for (const { write, ref } of writes) {
    const code = ref.remote[write.locale]!.code;
    const now = textOf(localeObject(at(doc, ref.field))?.[code]);
    if (now === write.text) continue;
    // A value someone wrote after the listing is theirs; the next sync imports it as a human translation.
    if (now !== ref.remote[write.locale]!.seen) {
      kept.push(`${id}.${ref.field} (${code})`);
      continue;
    }
    set[`${ref.field}.${code}`] = write.text;
  }
  if (Object.keys(set).length > 0) {
    const response = await ctx.http.request(`${dataUrl(ctx.settings, 'mutate')}?returnIds=true&visibility=sync`, {
      method: 'POST',
      headers: { ...authHeaders(ctx), 'content-type': 'application/json' },
      body: JSON.stringify({ mutations: [{ patch: { id, ifRevisionID: doc._rev, set } }] }),
    });
    // 409: the document changed between our read and our patch (Sanity refused the revision): read it again.
    if (response.status === 409) {
      await response.body?.cancel();
      return 'conflict';
    }
    if (!response.ok) throw await failure(response, `Writing translations into document '${id}' of ${where(ctx.settings)}`);
    await response.body?.cancel();
  }
  outcome.written += Object.keys(set).length;
  outcome.kept.push(...kept);
  return 'done';
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const byDocument = new Map<string, { write: StringWrite; ref: Ref }[]>();
  const unplaced: string[] = [];
  for (const w of writeBack.strings) {
    const ref = refSchema.safeParse(w.ref);
    if (!ref.success || !ref.data.remote[w.locale]) {
      unplaced.push(`${w.key} (${w.locale})`);
      continue;
    }
    byDocument.set(ref.data.id, [...(byDocument.get(ref.data.id) ?? []), { write: w, ref: ref.data }]);
  }
  const outcome: Outcome = { written: 0, kept: [], gone: [] };
  const raced: string[] = [];
  for (const [id, writes] of byDocument) {
    if ((await writeDocument(ctx, id, writes, outcome)) === 'conflict' && (await writeDocument(ctx, id, writes, outcome)) === 'conflict') raced.push(id);
  }
  const notes = [
    outcome.kept.length > 0 ? `Not overwritten, changed in Sanity since the listing: ${outcome.kept.join(', ')}.` : '',
    raced.length > 0 ? `Documents still changing under the write (revision mismatch twice), left for the next sync: ${raced.join(', ')}.` : '',
    outcome.gone.length > 0 ? `Documents deleted since the listing: ${outcome.gone.join(', ')}.` : '',
    unplaced.length > 0 ? `No Sanity language or document for: ${unplaced.join(', ')}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

/** `t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<body>">`, as @sanity/webhook encodes it. */
const SIGNATURE = /^t=(\d+)[, ]+v1=([^, ]+)$/;

function sanitySignature(body: string, timestamp: number, secret: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('base64url')}`;
}

const webhookBody = z.object({ _id: z.string().optional(), _type: z.string().optional() }).loose();

function verifyWebhook(request: WebhookRequest, secret: string, s: SanitySettings): WebhookVerdict {
  const header = request.headers.get('sanity-webhook-signature');
  if (header === null) return { verified: false, sync: false, reason: 'No sanity-webhook-signature header: set the webhook\'s secret in Sanity to the connection\'s webhook_secret.' };
  const match = SIGNATURE.exec(header.trim());
  if (!match) return { verified: false, sync: false, reason: `The sanity-webhook-signature header is not 't=<ms>,v1=<signature>': '${header.slice(0, 80)}'.` };
  const timestamp = Number(match[1]);
  const body = new TextDecoder().decode(request.body);
  if (!sameSecret(header.trim(), sanitySignature(body, timestamp, secret))) return { verified: false, sync: false, reason: 'The sanity-webhook-signature does not match the body signed with the connection\'s webhook secret.' };
  if (Math.abs(Date.now() - timestamp) > WEBHOOK_MAX_AGE_MS) return { verified: false, sync: false, reason: `The notification was signed at ${new Date(timestamp).toISOString()}, more than 5 minutes from now: refused as a replay.` };
  const project = request.headers.get('sanity-project-id');
  const dataset = request.headers.get('sanity-dataset');
  if ((project && project !== s.project_id) || (dataset && dataset !== s.dataset)) return { verified: true, sync: false, reason: `The notification is about ${project}/${dataset}, not ${s.project_id}/${s.dataset}.` };
  let doc: z.infer<typeof webhookBody> | undefined;
  try {
    const parsed = webhookBody.safeParse(JSON.parse(body));
    if (parsed.success) doc = parsed.data;
  } catch {
    // A projection that is not a JSON object still came signed: sync, and let the listing tell.
  }
  const id = request.headers.get('sanity-document-id') ?? doc?._id ?? '';
  if (id.startsWith('drafts.')) return { verified: true, sync: false, reason: `'${id}' is a draft; Parlance reads published documents.` };
  if (doc?._type && !s.document_types.includes(doc._type)) return { verified: true, sync: false, reason: `Document type '${doc._type}' is not in the document_types setting.` };
  return { verified: true, sync: true };
}

export const sanity: Connector<SanitySettings, SanitySecrets> = {
  id: 'sanity',
  name: 'Sanity',
  category: 'content',
  direction: 'two_way',
  summary: "Sanity documents' field-level localized strings (locale objects such as localeString), one path per document type, translations patched back with revision checks through the HTTP API.",
  settings,
  secrets,
  webhooks: "Sanity's GROQ-powered webhook signature, sanity-webhook-signature: t=<ms>,v1=<base64url HMAC-SHA256 of '<t>.<body>'> with the webhook's secret; older than 5 minutes is refused",
  list,
  write,
  verifyWebhook,
};
