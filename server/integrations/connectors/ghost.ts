/**
 * Ghost as a two-way content connector, through the Ghost Admin API. Ghost has no localization of its own, so this
 * connector follows the convention of Ghost's multilingual guides, with internal tags (tags whose name starts with
 * `#`, never shown to readers):
 *
 * - a source post (or page) carries the language tag `#lang-<code>` of the project's source locale (`#lang-en`);
 * - each translation is a separate post carrying `#lang-<code>` of its language (`#lang-de`) and
 *   `#translation-of-<source post id>`, which links it to its source.
 *
 * The languages the site has are its `#lang-…` tags. Each source post gives its title, custom excerpt, meta title,
 * meta description and (with `include_body`, the default) its whole HTML body as one string, keyed
 * `<source post id>.<field>` under one path per content type (`posts`, `pages`), with Ghost's own length limits
 * (title 255, excerpt 300, meta title 300, meta description 500) as the maximum. A missing translation is created as a
 * draft post with both tags; an existing one is updated with PUT, sending the `updated_at` just read (Ghost's collision
 * check), after reading it again so that a field a person changed since the listing is left as it is.
 *
 * Limits, said rather than faked: the body is one string of HTML, not segmented; Ghost stores posts as Lexical and
 * converts HTML written with `?source=html`, so cards Ghost's HTML import does not know come out as HTML cards, and
 * where Ghost renders the converted body differently from what was written, the next sync sees the difference as a
 * person's edit of that body. New translations are drafts: a person reviews the slug, images and publication in Ghost.
 *
 * References: https://docs.ghost.org/admin-api (base URL `/ghost/api/admin/`, `Accept-Version`, token authentication
 * `{id}:{secret}` → HS256 JWT with `kid`, `aud: '/admin/'`, at most 5 minutes, sent as `Authorization: Ghost <jwt>`;
 * the `{ posts: [...] }` envelope, `meta.pagination`, `filter`, `formats`, `limit`, `page`; updating with `updated_at`;
 * `?source=html`), https://docs.ghost.org/webhooks (events, the integration's webhook secret), TryGhost/Ghost
 * core/server/data/schema/schema.js (the length validations), the `UpdateCollisionError` (409 UPDATE_COLLISION) of
 * Ghost's collision plugin, and Ghost's webhook trigger (`X-Ghost-Signature: sha256=<hex HMAC-SHA256 of body +
 * timestamp>, t=<timestamp ms>`).
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** Posts per page: bodies come with them, so pages stay small. */
const PAGE_SIZE = 50;
const TAG_PAGE_SIZE = 100;
/** At most this many pages of one listing (10,000 posts a language): a bound, not a limit anyone should meet. */
const MAX_PAGES = 200;
/** Ghost's Admin API tokens live at most 5 minutes; each request gets a fresh one. */
const TOKEN_TTL_S = 300;
/** Notifications whose `t=` is further than this from now are refused as replays. */
const WEBHOOK_TOLERANCE_MS = 5 * 60_000;
const API_VERSION = 'v5.0';

const FIELDS = ['title', 'custom_excerpt', 'meta_title', 'meta_description', 'html'] as const;
type Field = (typeof FIELDS)[number];
/** Ghost's own validations (schema.js `isLength`); the body has none. */
const MAX_LENGTH: Partial<Record<Field, number>> = { title: 255, custom_excerpt: 300, meta_title: 300, meta_description: 500 };
const NOTES: Record<Field, string> = {
  title: 'Post title.',
  custom_excerpt: 'Excerpt shown on post cards and in feeds.',
  meta_title: 'SEO title (meta title) shown by search engines.',
  meta_description: 'SEO description (meta description) shown by search engines.',
  html: 'The whole post body as HTML: keep every tag and attribute, translate only the text.',
};
const TYPES = ['posts', 'pages'] as const;
type ContentType = (typeof TYPES)[number];

const INTERNAL_TAG_PREFIX = /^#[A-Za-z0-9][A-Za-z0-9_-]*$/;

const GhostSettings = z
  .object({
    api_url: z.string().url().openapi({ description: "The site's Admin API URL as Ghost shows it on the custom integration, e.g. `https://example.ghost.io` (without `/ghost/api/admin`)." }),
    content_types: z
      .array(z.enum(TYPES))
      .min(1)
      .default(['posts'])
      .openapi({ description: 'What to translate: `posts`, `pages` or both. Default `["posts"]`.' }),
    include_body: z.boolean().default(true).openapi({ description: "Also translate each post's HTML body, as one string. Default true; false translates the title, excerpt and meta fields only." }),
    language_tag_prefix: z
      .string()
      .regex(INTERNAL_TAG_PREFIX, "Expected an internal tag prefix starting with '#', such as '#lang-'.")
      .default('#lang-')
      .openapi({ description: 'The prefix of the internal tags naming a post\'s language: `#lang-en`, `#lang-de`. Default `#lang-`.' }),
    translation_tag_prefix: z
      .string()
      .regex(INTERNAL_TAG_PREFIX, "Expected an internal tag prefix starting with '#', such as '#translation-of-'.")
      .default('#translation-of-')
      .openapi({ description: 'The prefix of the internal tag linking a translation to its source post (`#translation-of-<source post id>`). Default `#translation-of-`.' }),
    create_languages: z
      .boolean()
      .default(false)
      .openapi({ description: "Translate into every target locale of the project, creating its language tag in Ghost with the first translation. Default false: only the languages the site has a tag for." }),
    locales: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ description: 'Parlance locale → the code in the language tag where they differ (`{"pt-BR": "pt"}` for `#lang-pt`); others match case-insensitively, `_` read as `-`.' }),
  })
  .strict();

const GhostSecrets = z
  .object({
    admin_api_key: z
      .string()
      .regex(/^[0-9a-f]{24}:[0-9a-f]{64}$/i, "Expected Ghost's Admin API key, '<24 hex id>:<64 hex secret>' (Settings → Integrations → the custom integration).")
      .openapi({ description: "The custom integration's Admin API key (Settings → Integrations → Add custom integration), `<id>:<secret>`." }),
  })
  .strict();

export type GhostSettings = z.infer<typeof GhostSettings>;
export type GhostSecrets = z.infer<typeof GhostSecrets>;
type Ctx = ConnectorContext<GhostSettings, GhostSecrets>;

interface GhostTag {
  id: string;
  name: string;
  slug: string;
  visibility?: string;
}
export interface GhostPost {
  id: string;
  title: string | null;
  custom_excerpt?: string | null;
  meta_title?: string | null;
  meta_description?: string | null;
  html?: string | null;
  status?: string;
  updated_at: string;
  created_at?: string;
  tags?: GhostTag[];
}
interface Pagination {
  page: number;
  pages: number;
  total: number;
  next: number | null;
}
/** What `write` needs: the content type, the source post, the field, and what each locale held when it was listed. */
type GhostRef = { type: ContentType; id: string; field: Field; seen: Record<string, string> };

const base = (ctx: Ctx) => `${ctx.settings.api_url.replace(/\/+$/, '').replace(/\/ghost\/api\/admin$/, '')}/ghost/api/admin`;

/** The short-lived token Ghost's Admin API takes: HS256 over the hex-decoded secret, `kid` the key's id. */
export function adminToken(apiKey: string, now = Date.now()): string {
  const [id, secret] = apiKey.split(':') as [string, string];
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(now / 1000);
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT', kid: id })}.${encode({ iat, exp: iat + TOKEN_TTL_S, aud: '/admin/' })}`;
  return `${unsigned}.${createHmac('sha256', Buffer.from(secret, 'hex')).update(unsigned).digest('base64url')}`;
}

const headers = (ctx: Ctx, json = false) => ({
  authorization: `Ghost ${adminToken(ctx.secrets.admin_api_key)}`,
  'accept-version': API_VERSION,
  ...(json ? { 'content-type': 'application/json' } : {}),
});

/**
 * One request with a token made now. A token outlives no long rate-limit wait (Ghost refuses one older than 5
 * minutes), so a 401 saying the token expired is sent once more with a new one; any other 401 is the key.
 */
async function call(ctx: Ctx, url: string, init: { method?: string; body?: string } = {}): Promise<Response> {
  const send = () => ctx.http.request(url, { ...init, headers: headers(ctx, init.body !== undefined) });
  const response = await send();
  if (response.status !== 401) return response;
  const said = await response.clone().text().catch(() => '');
  if (!/jwt expired|maxAge exceeded/i.test(said)) return response;
  await response.body?.cancel();
  return send();
}

/**
 * A tag's slug as Ghost makes it from a name: lower case, a leading `#` read as `hash-`, anything else that is not a
 * letter, digit or `-` as `-`. Used for the translation tag, whose name Parlance makes; the language tags' slugs are
 * read from Ghost.
 */
export function tagSlug(name: string): string {
  return name
    .replace(/^#/, 'hash-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/-$/, '');
}

const text = (post: GhostPost | undefined, field: Field): string => (post ? (post[field] ?? '') : '');

/** A read whose 404 points at `api_url`; any other failure goes through `failure` (401/403: the key). */
async function readJson<T>(ctx: Ctx, url: string, what: string): Promise<T> {
  const response = await call(ctx, url);
  if (response.status === 404) {
    await response.body?.cancel();
    throw new ConnectorError('config', `${what}: ${url} answered HTTP 404. Is api_url the site's Admin API URL (the one Ghost shows on the custom integration)?`);
  }
  if (!response.ok) throw await failure(response, what);
  return (await response.json()) as T;
}

/** Every page of a browse, bounded by MAX_PAGES. */
async function browse<T>(ctx: Ctx, resource: string, query: string, limit: number, what: string): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const url = `${base(ctx)}/${resource}/?${query}&limit=${limit}&page=${page}`;
    const body = await readJson<Record<string, unknown> & { meta?: { pagination?: Pagination } }>(ctx, url, `${what} (page ${page})`);
    const list = body[resource];
    if (!Array.isArray(list)) throw new ConnectorError('config', `${what}: the answer has no '${resource}' list; is api_url a Ghost site's Admin API?`);
    items.push(...(list as T[]));
    const pagination = body.meta?.pagination;
    if (!pagination?.next || list.length === 0) return { items, pages: page };
    if (page >= MAX_PAGES) throw new ConnectorError('config', `${what}: more than ${MAX_PAGES} pages of ${limit}; narrow content_types or split the site's languages.`);
  }
}

interface LocalePlan {
  /** The source language tag's slug, for the filter. */
  sourceSlug: string;
  /** Parlance tag → the language tag's name (`#lang-de`) and slug (null: not in Ghost yet, created with the first translation). */
  targets: Map<string, { name: string; slug: string | null }>;
  skipped: string[];
  pages: number;
}

async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const prefix = ctx.settings.language_tag_prefix;
  const { items: tags, pages } = await browse<GhostTag>(ctx, 'tags', `filter=${encodeURIComponent('visibility:internal')}&fields=id,name,slug,visibility`, TAG_PAGE_SIZE, 'Listing the Ghost internal tags');
  const byCode = new Map<string, GhostTag>();
  for (const tag of tags) {
    if (tag.name.toLowerCase().startsWith(prefix.toLowerCase()) && tag.name.length > prefix.length) byCode.set(tag.name.slice(prefix.length), tag);
  }
  const codes = [...byCode.keys()];
  const sourceCode = matchLocales([ctx.sourceLocale], codes, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!sourceCode) {
    const wanted = `${prefix}${ctx.settings.locales[ctx.sourceLocale] ?? ctx.sourceLocale}`;
    throw new ConnectorError('config', `Ghost has no language tag for the project's source locale '${ctx.sourceLocale}' (expected the internal tag '${wanted}'; the site has ${codes.map((c) => `${prefix}${c}`).join(', ') || 'no language tags'}). Tag the source posts with it, or map it in the \`locales\` setting.`);
  }
  const matched = matchLocales(ctx.targetLocales, codes, ctx.settings.locales);
  const targets = new Map<string, { name: string; slug: string | null }>();
  for (const [tag, code] of matched.codes) {
    if (code !== sourceCode) targets.set(tag, { name: byCode.get(code)!.name, slug: byCode.get(code)!.slug });
  }
  const skipped: string[] = [];
  for (const tag of ctx.targetLocales.filter((t) => !targets.has(t))) {
    if (ctx.settings.create_languages && !matched.codes.has(tag)) targets.set(tag, { name: `${prefix}${ctx.settings.locales[tag] ?? tag}`, slug: null });
    else skipped.push(tag);
  }
  return { sourceSlug: byCode.get(sourceCode)!.slug, targets, skipped, pages };
}

const postQuery = (filter: string) => `filter=${encodeURIComponent(filter)}&formats=html&include=tags&order=${encodeURIComponent('created_at asc')}`;
const fieldsOf = (ctx: Ctx): Field[] => (ctx.settings.include_body ? [...FIELDS] : FIELDS.filter((f) => f !== 'html'));
const translationTag = (ctx: Ctx, sourceId: string) => `${ctx.settings.translation_tag_prefix}${sourceId}`;

/** The source post a translation names in its translation tag, if any. */
function sourceOf(ctx: Ctx, post: GhostPost): string | undefined {
  const prefix = ctx.settings.translation_tag_prefix.toLowerCase();
  return post.tags?.find((t) => t.name.toLowerCase().startsWith(prefix))?.name.slice(prefix.length);
}

async function listType(ctx: Ctx, type: ContentType, plan: LocalePlan): Promise<{ unit: StringUnit; pages: number; posts: number; duplicates: number }> {
  const label = type === 'posts' ? 'posts' : 'pages';
  const source = await browse<GhostPost>(ctx, type, postQuery(`tag:${plan.sourceSlug}`), PAGE_SIZE, `Listing the Ghost ${label} tagged ${plan.sourceSlug}`);
  let pages = source.pages;
  let duplicates = 0;
  /** Parlance locale → source post id → its translation (the oldest, when a person made two). */
  const translations = new Map<string, Map<string, GhostPost>>();
  for (const [tag, language] of plan.targets) {
    const found = new Map<string, GhostPost>();
    translations.set(tag, found);
    if (language.slug === null) continue;
    const read = await browse<GhostPost>(ctx, type, postQuery(`tag:${language.slug}`), PAGE_SIZE, `Listing the Ghost ${label} tagged ${language.slug}`);
    pages += read.pages;
    for (const post of read.items) {
      const of = sourceOf(ctx, post);
      if (!of) continue;
      if (found.has(of)) duplicates++;
      else found.set(of, post);
    }
  }
  const strings: RemoteString[] = [];
  for (const post of source.items) {
    // A post tagged with both the source and a translation tag is a translation someone tagged twice: not a source.
    if (sourceOf(ctx, post)) continue;
    for (const field of fieldsOf(ctx)) {
      const value = text(post, field);
      if (value.trim() === '') continue;
      const seen: Record<string, string> = {};
      for (const tag of plan.targets.keys()) seen[tag] = text(translations.get(tag)!.get(post.id), field);
      const ref: GhostRef = { type, id: post.id, field, seen };
      const maxLength = MAX_LENGTH[field];
      strings.push({
        key: `${post.id}.${field}`,
        source: value,
        notes: NOTES[field],
        // The item and field, not the post's title: a changed title would otherwise change every field's context.
        context: `${label} › ${post.id} › ${field}`,
        ...(maxLength ? { maxLength } : {}),
        ref,
        translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
      });
    }
  }
  return { unit: { kind: 'strings', path: type, strings, locales: [...plan.targets.keys()] }, pages, posts: source.items.length, duplicates };
}

async function list(ctx: Ctx): Promise<Listing> {
  const plan = await planLocales(ctx);
  const units: StringUnit[] = [];
  let pages = plan.pages;
  const counted: string[] = [];
  let duplicates = 0;
  for (const type of ctx.settings.content_types) {
    const listed = await listType(ctx, type, plan);
    units.push(listed.unit);
    pages += listed.pages;
    duplicates += listed.duplicates;
    counted.push(`${listed.posts} ${type}`);
  }
  const languages = [...plan.targets].map(([tag, l]) => `${tag} → ${l.name}${l.slug === null ? ' (created with the first translation)' : ''}`);
  const notes = [`Read ${counted.join(' and ')} tagged ${plan.sourceSlug} in ${pages} page(s); languages ${languages.join(', ') || 'none'}.`];
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: the site has no ${ctx.settings.language_tag_prefix}… tag for them (create the tag in Ghost, or turn on create_languages).`);
  if (duplicates) notes.push(`${duplicates} extra translation post(s) link to a source that already has one in their language: the oldest is used.`);
  return { units, note: notes.join(' ') };
}

function readRef(write: StringWrite): GhostRef {
  const ref = write.ref as GhostRef | undefined;
  if (!ref || !TYPES.includes(ref.type) || typeof ref.id !== 'string' || !FIELDS.includes(ref.field)) {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Ghost: the string carries no Ghost reference; sync again so it is listed anew.`);
  }
  return ref;
}

/** The source post now; null when it was deleted since the listing. */
async function readSource(ctx: Ctx, type: ContentType, id: string): Promise<GhostPost | null> {
  const url = `${base(ctx)}/${type}/${encodeURIComponent(id)}/?formats=html&include=tags`;
  const response = await call(ctx, url);
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, `Reading Ghost ${type} ${id}`);
  return ((await response.json()) as Record<string, GhostPost[]>)[type]?.[0] ?? null;
}

/** The translation of a source post in one language now, by its two tags. */
async function readTranslation(ctx: Ctx, type: ContentType, sourceId: string, language: { name: string; slug: string | null }): Promise<GhostPost | undefined> {
  const filter = `tag:${tagSlug(translationTag(ctx, sourceId))}+tag:${language.slug ?? tagSlug(language.name)}`;
  const url = `${base(ctx)}/${type}/?${postQuery(filter)}&limit=5`;
  const response = await call(ctx, url);
  if (!response.ok) throw await failure(response, `Reading the ${language.name} translation of Ghost ${type} ${sourceId}`);
  return ((await response.json()) as Record<string, GhostPost[]>)[type]?.[0];
}

type Planned = { write: StringWrite; ref: GhostRef };
interface Outcome {
  written: number;
  kept: string[];
  tooLong: string[];
  created: boolean;
}

/** The body of a PUT or POST: one post in Ghost's envelope, `?source=html` when the body is in it. */
function send(ctx: Ctx, type: ContentType, url: string, method: 'PUT' | 'POST', what: string, post: Record<string, unknown>) {
  const query = 'html' in post ? '?source=html' : '';
  return call(ctx, `${url}${query}`, { method, body: JSON.stringify({ [type]: [post] }) }).then(async (response) => {
    if (response.status === 409) return 'collision' as const;
    if (!response.ok) throw await failure(response, what);
    await response.body?.cancel();
    return 'ok' as const;
  });
}

/**
 * Writes one source post's fields in one language: reads the translation now, keeps any field a person changed since
 * the listing, then updates it (with the `updated_at` just read; on a collision, once more after reading it again) or
 * creates it as a draft with the language and translation tags.
 */
async function writeTranslation(ctx: Ctx, source: GhostPost, type: ContentType, locale: string, language: { name: string; slug: string | null }, writes: Planned[]): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    const now = await readTranslation(ctx, type, source.id, language);
    const changes: Partial<Record<Field, string>> = {};
    const kept: string[] = [];
    const tooLong: string[] = [];
    for (const { write, ref } of writes) {
      const limit = MAX_LENGTH[ref.field];
      if (limit && write.text.length > limit) {
        tooLong.push(`${type} ${source.id} ${ref.field} (${locale}, ${write.text.length} > ${limit})`);
        continue;
      }
      const current = text(now, ref.field);
      if (current === write.text) continue;
      if (current !== (ref.seen[locale] ?? '')) {
        kept.push(`${type} ${source.id} ${ref.field} (${locale})`);
        continue;
      }
      changes[ref.field] = write.text;
    }
    const written = Object.keys(changes).length;
    if (written === 0) return { written, kept, tooLong, created: false };
    if (now) {
      const outcome = await send(ctx, type, `${base(ctx)}/${type}/${encodeURIComponent(now.id)}/`, 'PUT', `Updating Ghost ${type} ${now.id} (the ${language.name} translation of ${source.id})`, { ...changes, updated_at: now.updated_at });
      if (outcome === 'ok') return { written, kept, tooLong, created: false };
      if (attempt >= 2) throw new ConnectorError('unavailable', `Updating Ghost ${type} ${now.id} (the ${language.name} translation of ${source.id}): Ghost answered HTTP 409 (someone else is editing it) twice; the sync tries again later.`);
      continue;
    }
    // A new translation: a draft with the language and translation tags, and the source's title and body where they
    // are not translated (yet), so that the draft is a whole post.
    const post: Record<string, unknown> = {
      title: changes.title ?? source.title ?? '',
      ...changes,
      ...(changes.html === undefined && !ctx.settings.include_body && source.html ? { html: source.html } : {}),
      status: 'draft',
      tags: [{ name: language.name }, { name: translationTag(ctx, source.id) }],
    };
    await send(ctx, type, `${base(ctx)}/${type}/`, 'POST', `Creating the ${language.name} translation of Ghost ${type} ${source.id}`, post);
    return { written, kept, tooLong, created: true };
  }
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = await planLocales(ctx);
  const groups = new Map<string, { type: ContentType; id: string; locale: string; writes: Planned[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    // A project locale the site has no language tag for (the listing said so) has nowhere to go.
    if (!plan.targets.has(one.locale)) {
      absent.add(one.locale);
      continue;
    }
    const id = `${ref.type}\u0000${ref.id}\u0000${one.locale}`;
    const group = groups.get(id) ?? { type: ref.type, id: ref.id, locale: one.locale, writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  const sources = new Map<string, GhostPost | null>();
  let written = 0;
  let created = 0;
  const kept: string[] = [];
  const tooLong: string[] = [];
  const deleted = new Set<string>();
  for (const group of groups.values()) {
    const sourceKey = `${group.type}\u0000${group.id}`;
    if (!sources.has(sourceKey)) sources.set(sourceKey, await readSource(ctx, group.type, group.id));
    const source = sources.get(sourceKey)!;
    if (!source) {
      deleted.add(`${group.type} ${group.id}`);
      continue;
    }
    const outcome = await writeTranslation(ctx, source, group.type, group.locale, plan.targets.get(group.locale)!, group.writes);
    written += outcome.written;
    if (outcome.created) created++;
    kept.push(...outcome.kept);
    tooLong.push(...outcome.tooLong);
  }
  const notes: string[] = [];
  if (created) notes.push(`Created ${created} translation post(s) as drafts.`);
  if (kept.length) notes.push(`Left ${kept.length} field(s) a person changed in Ghost since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (tooLong.length) notes.push(`Not written, longer than Ghost allows: ${tooLong.slice(0, 10).join(', ')}.`);
  if (deleted.size) notes.push(`Not written: deleted in Ghost since the listing: ${[...deleted].slice(0, 10).join(', ')}.`);
  if (absent.size) notes.push(`Not written: the site has no language tag for ${[...absent].join(', ')}.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/** The signature Ghost sends for `body` at `timestamp` (epoch milliseconds): hex HMAC-SHA256 of the body then the timestamp. */
export function ghostSignature(secret: string, body: Uint8Array | string, timestamp: string): string {
  return createHmac('sha256', secret).update(body).update(timestamp).digest('hex');
}

/**
 * Verifies `X-Ghost-Signature: sha256=<hex>, t=<ms>` against the webhook secret set on the Ghost webhook, refusing
 * one more than 5 minutes off. A post or page event of a content type not synced, or about posts with no language or
 * translation tag, is verified but starts no sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: GhostSettings): WebhookVerdict {
  const header = request.headers.get('x-ghost-signature');
  if (!header) return { verified: false, sync: false, reason: 'No X-Ghost-Signature header: set the Ghost webhook\'s secret to the connection\'s webhook secret.' };
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split(/=(.*)/s, 2) as [string, string]));
  const signature = parts.sha256;
  const timestamp = parts.t;
  if (!signature || !timestamp || !/^\d{1,16}$/.test(timestamp)) return { verified: false, sync: false, reason: `X-Ghost-Signature is not 'sha256=<hex>, t=<timestamp>': '${header.slice(0, 80)}'.` };
  const age = Date.now() - Number(timestamp);
  if (Math.abs(age) > WEBHOOK_TOLERANCE_MS) return { verified: false, sync: false, reason: `The X-Ghost-Signature timestamp is ${Math.round(age / 1000)} s off the current time; notifications over 5 minutes old are refused as replays.` };
  if (!sameSecret(signature.toLowerCase(), ghostSignature(webhookSecret, request.body, timestamp))) return { verified: false, sync: false, reason: "X-Ghost-Signature does not match the body signed with the connection's webhook secret." };
  type Change = { current?: { tags?: { name?: string }[] }; previous?: { tags?: { name?: string }[] } };
  let payload: { post?: Change; page?: Change } | null;
  try {
    payload = JSON.parse(new TextDecoder().decode(request.body)) as typeof payload;
  } catch {
    return { verified: true, sync: true };
  }
  if (typeof payload !== 'object' || payload === null) return { verified: true, sync: true };
  const kind = payload.post ? 'posts' : payload.page ? 'pages' : undefined;
  if (!kind) return { verified: true, sync: false, reason: 'The Ghost event is not about a post or a page.' };
  if (!settings.content_types.includes(kind)) return { verified: true, sync: false, reason: `The Ghost event is about ${kind}, which this connection does not translate.` };
  // `previous` holds only what changed (all of it on a deletion): a post's tags before and after, where Ghost sent them.
  const { current, previous } = (payload.post ?? payload.page)!;
  const known = Array.isArray(current?.tags) || Array.isArray(previous?.tags);
  const tags = [...(current?.tags ?? []), ...(previous?.tags ?? [])];
  const prefixes = [settings.language_tag_prefix, settings.translation_tag_prefix].map((p) => p.toLowerCase());
  if (known && !tags.some((t) => prefixes.some((p) => t.name?.toLowerCase().startsWith(p) === true))) {
    return { verified: true, sync: false, reason: `The Ghost ${kind === 'posts' ? 'post' : 'page'} has no ${settings.language_tag_prefix}… or ${settings.translation_tag_prefix}… tag.` };
  }
  return { verified: true, sync: true };
}

export const ghost: Connector<GhostSettings, GhostSecrets> = {
  id: 'ghost',
  name: 'Ghost',
  category: 'content',
  direction: 'two_way',
  summary: 'Ghost posts and pages, one post per language linked by internal tags (#lang-xx, #translation-of-<id>): titles, excerpts, meta fields and HTML bodies are translated and written back, new translations as drafts.',
  settings: GhostSettings,
  secrets: GhostSecrets,
  webhooks: "Ghost's X-Ghost-Signature ('sha256=<hex HMAC-SHA256 of the body followed by t>, t=<epoch ms>' with the webhook's secret), refused after 5 minutes",
  list,
  write,
  verifyWebhook,
};
