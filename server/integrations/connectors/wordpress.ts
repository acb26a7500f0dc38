/**
 * WordPress with Polylang as a two-way content connector, through the WordPress REST API and the `lang` and
 * `translations` fields Polylang Pro adds to posts (free Polylang needs a plugin exposing the same two fields): each
 * post of the source language gives its title and excerpt (and its whole content as one string when `include_content`
 * is on), keyed `<post id>.<field>` under one path per post type. A missing translation is created as a draft post in
 * the target language linked to the source's translation group; an existing one is updated (WordPress updates with
 * POST), after reading it again so that a field a person changed since the listing is left as it is.
 *
 * Limits, said rather than faked: WordPress sends no change notifications of its own, so there is no `verifyWebhook`:
 * syncs run on demand and on the connection's schedule. The content is one string of block markup, not segmented.
 *
 * References: https://developer.wordpress.org/rest-api/reference/posts/ (`context=edit` raw fields, `per_page` ≤ 100,
 * `X-WP-Total`/`X-WP-TotalPages`, create and update with POST), https://developer.wordpress.org/rest-api/using-the-rest-api/authentication/
 * (Application Passwords over Basic auth), https://polylang.pro/doc/rest-api/ (`lang` filter, `lang` and `translations`
 * fields, assigning them on POST), and polylang/polylang's REST Languages controller (`GET /pll/v1/languages`:
 * `slug`, `locale`, `w3c`, `is_default`).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, RemoteString, StringUnit, StringWrite, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { sameLocale } from '../remote-locales.js';

const PER_PAGE = 100;
const REST_BASE = /^[a-z0-9][a-z0-9_-]*$/;
type Field = 'title' | 'excerpt' | 'content';

const WordPressSettings = z
  .object({
    api_url: z.string().url().openapi({ description: 'The REST API root of the site, e.g. `https://example.com/wp-json`.' }),
    post_types: z
      .array(z.string().regex(REST_BASE, "Expected a post type's REST base such as 'posts' or 'pages'."))
      .min(1)
      .default(['posts', 'pages'])
      .openapi({ description: 'The post types to translate, by REST base (`posts`, `pages`, a custom type\'s `rest_base`). Default `["posts", "pages"]`.' }),
    include_content: z.boolean().default(false).openapi({ description: "Also translate each post's whole content, as one string of block markup. Default false: title and excerpt only." }),
    locales: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ description: 'Parlance locale → Polylang language slug where they differ (`{"pt-BR": "pt"}`); others match the slug, locale or W3C code case-insensitively.' }),
  })
  .strict();

const WordPressSecrets = z
  .object({
    username: z.string().min(1).openapi({ description: 'The WordPress user the Application Password belongs to (an Editor or Administrator).' }),
    application_password: z.string().min(1).openapi({ description: 'An Application Password of that user (Users → Profile → Application Passwords).' }),
  })
  .strict();

export type WordPressSettings = z.infer<typeof WordPressSettings>;
export type WordPressSecrets = z.infer<typeof WordPressSecrets>;
type Ctx = ConnectorContext<WordPressSettings, WordPressSecrets>;

interface PolylangLanguage {
  slug: string;
  locale: string;
  w3c?: string;
  is_default?: boolean;
}
interface WpPost {
  id: number;
  status: string;
  modified_gmt: string;
  title?: { raw?: string };
  excerpt?: { raw?: string };
  content?: { raw?: string };
  lang?: string;
  translations?: Record<string, number>;
}
/** What `write` needs: the source post, the field, and what each locale held when it was listed. */
type WordPressRef = { type: string; id: number; field: Field; seen: Record<string, string> };

const base = (ctx: Ctx) => ctx.settings.api_url.replace(/\/+$/, '');
const auth = (ctx: Ctx) => ({ authorization: `Basic ${Buffer.from(`${ctx.secrets.username}:${ctx.secrets.application_password}`).toString('base64')}` });
const fieldsOf = (ctx: Ctx): Field[] => (ctx.settings.include_content ? ['title', 'excerpt', 'content'] : ['title', 'excerpt']);
const raw = (post: WpPost, field: Field) => post[field]?.raw ?? '';

interface LocalePlan {
  source: string;
  /** Parlance tag → Polylang slug, for the target locales the site has. */
  targets: Map<string, string>;
  skipped: string[];
}

/**
 * The Polylang language of a Parlance locale: the `locales` setting first, else its slug, locale or W3C code by
 * `sameLocale`. Not `matchLocales`, which matches one code per remote language: a Polylang language has three (slug
 * `pt`, locale `pt_BR`, W3C `pt-BR`), any of them may be the project's tag, and the REST API takes the slug.
 */
function languageFor(tag: string, languages: PolylangLanguage[], overrides: Record<string, string>): string | undefined {
  const wanted = overrides[tag] ?? tag;
  return languages.find((l) => [l.slug, l.locale, l.w3c].some((code) => code !== undefined && sameLocale(code, wanted)))?.slug;
}

async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const url = `${base(ctx)}/pll/v1/languages`;
  const response = await ctx.http.request(url, { headers: auth(ctx) });
  if (response.status === 404) {
    await response.body?.cancel();
    throw new ConnectorError('config', `Listing the Polylang languages: ${url} answered HTTP 404. Is api_url the site's REST root (…/wp-json), with Polylang 3.7+ or Polylang Pro active?`);
  }
  if (!response.ok) throw await failure(response, 'Listing the Polylang languages');
  const languages = (await response.json()) as PolylangLanguage[];
  const source = languageFor(ctx.sourceLocale, languages, ctx.settings.locales);
  if (!source) throw new ConnectorError('config', `Polylang has no language for the project's source locale '${ctx.sourceLocale}' (it has ${languages.map((l) => l.slug).join(', ') || 'none'}). Add it, or map it in the \`locales\` setting.`);
  const targets = new Map<string, string>();
  const skipped: string[] = [];
  for (const tag of ctx.targetLocales) {
    const slug = languageFor(tag, languages, ctx.settings.locales);
    if (slug && slug !== source) targets.set(tag, slug);
    else skipped.push(tag);
  }
  return { source, targets, skipped };
}

/** Every post of a type in one language (with `status=any` for translations, which Parlance creates as drafts). */
async function readPosts(ctx: Ctx, type: string, lang: string, anyStatus: boolean): Promise<{ posts: WpPost[]; pages: number }> {
  const posts: WpPost[] = [];
  for (let page = 1; ; page++) {
    const what = `Listing WordPress ${type} (lang ${lang}, page ${page})`;
    const url = `${base(ctx)}/wp/v2/${type}?lang=${encodeURIComponent(lang)}&context=edit&per_page=${PER_PAGE}&page=${page}&orderby=id&order=asc${anyStatus ? '&status=any' : ''}`;
    const response = await ctx.http.request(url, { headers: auth(ctx) });
    if (!response.ok) throw await failure(response, what);
    const body = (await response.json()) as WpPost[];
    if (!Array.isArray(body)) throw new ConnectorError('config', `${what}: the answer is not a list of posts; is '${type}' a post type's REST base?`);
    posts.push(...body);
    const totalPages = Number(response.headers.get('x-wp-totalpages') ?? '1');
    if (page >= totalPages || body.length === 0) return { posts, pages: page };
  }
}

/** Polylang's fields must be there, or translations could be neither found nor linked. */
function checkPolylang(type: string, post: WpPost): void {
  if (typeof post.lang !== 'string' || typeof post.translations !== 'object' || post.translations === null) {
    throw new ConnectorError('config', `WordPress ${type} ${post.id} has no Polylang \`lang\`/\`translations\` fields in the REST API. Polylang Pro adds them (free Polylang needs a plugin that exposes them), and the post type must be translatable in Languages → Settings.`);
  }
}

async function listType(ctx: Ctx, type: string, plan: LocalePlan): Promise<{ unit: StringUnit; pages: number }> {
  const source = await readPosts(ctx, type, plan.source, false);
  let pages = source.pages;
  const byId = new Map<number, WpPost>();
  for (const slug of plan.targets.values()) {
    const read = await readPosts(ctx, type, slug, true);
    pages += read.pages;
    for (const post of read.posts) byId.set(post.id, post);
  }
  const strings: RemoteString[] = [];
  for (const post of source.posts) {
    checkPolylang(type, post);
    for (const field of fieldsOf(ctx)) {
      const text = raw(post, field);
      if (text.trim() === '') continue;
      const seen: Record<string, string> = {};
      for (const [tag, slug] of plan.targets) {
        const translation = byId.get(post.translations![slug] ?? -1);
        seen[tag] = translation ? raw(translation, field) : '';
      }
      const ref: WordPressRef = { type, id: post.id, field, seen };
      const title = raw(post, 'title');
      strings.push({
        key: `${post.id}.${field}`,
        source: text,
        context: field !== 'title' && title ? `${type}: ${title}` : type,
        ref,
        translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
      });
    }
  }
  return { unit: { kind: 'strings', path: type, strings, locales: [...plan.targets.keys()] }, pages };
}

async function list(ctx: Ctx) {
  const plan = await planLocales(ctx);
  const units: StringUnit[] = [];
  let pages = 0;
  for (const type of ctx.settings.post_types) {
    const listed = await listType(ctx, type, plan);
    units.push(listed.unit);
    pages += listed.pages;
  }
  const notes = [`Read ${pages} page(s) of ${ctx.settings.post_types.join(', ')}, source language ${plan.source}.`];
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: Polylang has no such language.`);
  return { units, note: notes.join(' ') };
}

function readRef(write: StringWrite): WordPressRef {
  const ref = write.ref as WordPressRef | undefined;
  if (!ref || typeof ref.type !== 'string' || typeof ref.id !== 'number' || !['title', 'excerpt', 'content'].includes(ref.field)) {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to WordPress: the string carries no WordPress reference; sync again so it is listed anew.`);
  }
  return ref;
}

const readPost = (ctx: Ctx, type: string, id: number) => ctx.http.json<WpPost>(`${base(ctx)}/wp/v2/${type}/${id}?context=edit`, { what: `Reading WordPress ${type} ${id}`, headers: auth(ctx) });

const postJson = (ctx: Ctx, url: string, what: string, body: Record<string, unknown>) =>
  ctx.http.json<WpPost>(url, { what, method: 'POST', headers: { ...auth(ctx), 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * Writes one source post's fields in one language: reads the source again (its translation group now) and the
 * translation, keeps any field a person changed since the listing, then updates the translation or creates it as a
 * draft linked to the group.
 */
async function writeTranslation(ctx: Ctx, slug: string, writes: { write: StringWrite; ref: WordPressRef }[]): Promise<{ written: number; kept: string[]; url?: string }> {
  const { type, id } = writes[0]!.ref;
  const source = await readPost(ctx, type, id);
  checkPolylang(type, source);
  const translationId = source.translations![slug];
  const now = translationId ? await readPost(ctx, type, translationId) : null;
  const changes: Partial<Record<Field, string>> = {};
  const kept: string[] = [];
  for (const { write, ref } of writes) {
    const current = now ? raw(now, ref.field) : '';
    if (current === write.text) continue;
    if (current !== (ref.seen[write.locale] ?? '')) {
      kept.push(`${type} ${id} ${ref.field} (${write.locale})`);
      continue;
    }
    changes[ref.field] = write.text;
  }
  const written = Object.keys(changes).length;
  if (written === 0) return { written, kept };
  if (now) {
    await postJson(ctx, `${base(ctx)}/wp/v2/${type}/${now.id}`, `Updating WordPress ${type} ${now.id} (the ${slug} translation of ${id})`, changes);
    return { written, kept };
  }
  // A new translation: a draft in the target language, in the source's translation group, with the source's content
  // when the content is not translated here so that the draft is a whole post.
  const group = Object.fromEntries(Object.entries(source.translations!).filter(([lang]) => lang !== slug));
  const body = { title: changes.title ?? '', excerpt: changes.excerpt ?? '', content: changes.content ?? (ctx.settings.include_content ? '' : raw(source, 'content')), status: 'draft', lang: slug, translations: group };
  const created = await postJson(ctx, `${base(ctx)}/wp/v2/${type}`, `Creating the ${slug} translation of WordPress ${type} ${id}`, body);
  if (created.lang !== slug) {
    throw new ConnectorError('config', `Created WordPress ${type} ${created.id} as the ${slug} translation of ${id}, but the site did not set its language (lang is ${JSON.stringify(created.lang ?? null)}). Polylang Pro's REST fields are needed to create linked translations; delete that draft.`);
  }
  return { written, kept };
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = await planLocales(ctx);
  const groups = new Map<string, { slug: string; writes: { write: StringWrite; ref: WordPressRef }[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    const slug = plan.targets.get(one.locale);
    // A project locale Polylang has no language for (the listing said so) has nowhere to go.
    if (!slug) {
      absent.add(one.locale);
      continue;
    }
    const id = `${ref.type}\u0000${ref.id}\u0000${slug}`;
    const group = groups.get(id) ?? { slug, writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  let written = 0;
  const kept: string[] = [];
  for (const group of groups.values()) {
    const result = await writeTranslation(ctx, group.slug, group.writes);
    written += result.written;
    kept.push(...result.kept);
  }
  const notes: string[] = [];
  if (kept.length) notes.push(`Left ${kept.length} field(s) a person changed in WordPress since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (absent.size) notes.push(`Not written: Polylang has no language for ${[...absent].join(', ')}.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/** No `verifyWebhook`: WordPress has no change notifications of its own; syncs run on demand and on the schedule. */
export const wordpress: Connector<WordPressSettings, WordPressSecrets> = {
  id: 'wordpress',
  name: 'WordPress (Polylang)',
  category: 'content',
  direction: 'two_way',
  summary: 'WordPress posts and pages with Polylang: titles and excerpts (optionally whole contents) are translated and written back as linked translation posts, new ones as drafts.',
  settings: WordPressSettings,
  secrets: WordPressSecrets,
  list,
  write,
};
