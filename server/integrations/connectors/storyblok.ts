/**
 * Storyblok as a two-way content connector, through the Management API (v1) and Storyblok's field-level
 * translation: a field marked `translatable` in its component's schema holds the default language's text at
 * `<field>` and each other language's at `<field>__i18n__<code>`. Every translatable `text`, `textarea` or `markdown`
 * field of every blok of every story is one string (key `<story id>.<field>` on the story's root blok,
 * `<story id>.<blok _uid>.<field>` in nested bloks), one unit per content type (the root blok's component).
 * Rich-text fields (a JSON document, not a string) and folder-level (one story per language) translation are not
 * supported.
 *
 * Writes change the story's draft (Parlance never publishes). The Management API's story update takes no version,
 * ETag or timestamp to compare (its reference lists `story`, `group_id`, `force_update`, `release_id`, `publish` and
 * `lang`, nothing conditional), so the window is narrowed as far as the API allows: the story is read again just
 * before it is written (no other request in between), a value someone changed since the listing is left alone, and
 * `force_update` is never sent, so a story Storyblok holds locked for someone editing it refuses the write (the sync
 * fails with Storyblok's message and the next one tries again) instead of being overridden. What remains: another
 * save landing between that read and the PUT (one round trip) is replaced by the PUT, translated fields and others
 * alike; Storyblok keeps it in the story's history, from which it can be restored.
 *
 * Webhooks: Storyblok signs the raw body (`webhook-signature`, hex HMAC-SHA1 with the webhook secret) and sends no
 * time with it, so a replayed notification cannot be told from a fresh one; a replay only starts one more sync.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, JsonValue, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const settings = z
  .object({
    api_url: z.string().url().default('https://mapi.storyblok.com/v1').openapi({ description: "The Management API's base URL. Default `https://mapi.storyblok.com/v1` (EU); `https://api-us.storyblok.com/v1` and the other regions' hosts for spaces elsewhere." }),
    space_id: z.string().regex(/^\d+$/, 'the numeric id of a Storyblok space').openapi({ description: "The space's numeric id (Settings → Space in the Storyblok app)." }),
    locales: z.record(z.string(), z.string().min(1)).optional().openapi({ description: 'A Parlance locale → Storyblok language code, where they differ beyond case and `_`/`-` (`{"pt-BR": "pt-br-custom"}`).' }),
  })
  .strict();

const secrets = z
  .object({
    management_token: z.string().min(1).openapi({ description: 'A personal access token (My account → Personal access tokens) of a user who may edit the space\'s stories.' }),
  })
  .strict();

export type StoryblokSettings = z.infer<typeof settings>;
export type StoryblokSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<StoryblokSettings, StoryblokSecrets>;

/** Storyblok's largest page of stories. */
const PER_PAGE = 100;
const TEXT_TYPES = new Set(['text', 'textarea', 'markdown']);
const I18N = '__i18n__';

const spaceSchema = z.object({ space: z.object({ id: z.number(), name: z.string().optional(), languages: z.array(z.object({ code: z.string(), name: z.string().optional() })).default([]) }) });
const schemaField = z.object({ type: z.string(), translatable: z.boolean().optional(), display_name: z.string().nullish(), description: z.string().nullish(), max_length: z.union([z.string(), z.number()]).nullish() }).loose();
const componentsSchema = z.object({ components: z.array(z.object({ name: z.string(), display_name: z.string().nullish(), schema: z.record(z.string(), z.unknown()).default({}) })) });
const storiesSchema = z.object({ stories: z.array(z.object({ id: z.number(), name: z.string().optional() })) });
const blokSchema = z.object({ _uid: z.string(), component: z.string() }).catchall(z.unknown());
const storySchema = z.object({ story: z.object({ id: z.number(), name: z.string().default(''), content: blokSchema }) });
type Blok = z.infer<typeof blokSchema>;
type FieldSchema = z.infer<typeof schemaField>;
/** Each component's translatable text fields. */
type Components = Map<string, Map<string, FieldSchema>>;

const refSchema = z.object({ story: z.number(), uid: z.string().nullable(), field: z.string(), remote: z.record(z.string(), z.object({ code: z.string(), seen: z.string() })) });
type Ref = z.infer<typeof refSchema>;

const spaceUrl = (s: StoryblokSettings) => `${s.api_url.replace(/\/+$/, '')}/spaces/${s.space_id}`;
const authHeaders = (ctx: Ctx) => ({ authorization: ctx.secrets.management_token });
const where = (s: StoryblokSettings) => `Storyblok space ${s.space_id}`;

async function getJson<T extends z.ZodType>(ctx: Ctx, url: string, schema: T, what: string): Promise<{ body: z.infer<T>; headers: Headers }> {
  const response = await ctx.http.request(url, { headers: authHeaders(ctx) });
  if (!response.ok) throw await failure(response, what);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConnectorError('config', `${what}: the answer from ${new URL(url).host} is not JSON. Check the connection's api_url.`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ConnectorError('config', `${what}: the answer from ${new URL(url).host} is not a Management API answer (${parsed.error.issues[0]?.message}). Check the connection's api_url.`);
  return { body: parsed.data, headers: response.headers };
}

async function readComponents(ctx: Ctx): Promise<Components> {
  const { body } = await getJson(ctx, `${spaceUrl(ctx.settings)}/components`, componentsSchema, `Reading the components of ${where(ctx.settings)}`);
  const components: Components = new Map();
  for (const component of body.components) {
    const fields = new Map<string, FieldSchema>();
    for (const [name, raw] of Object.entries(component.schema)) {
      const field = schemaField.safeParse(raw);
      if (field.success && field.data.translatable && TEXT_TYPES.has(field.data.type)) fields.set(name, field.data);
    }
    components.set(component.name, fields);
  }
  return components;
}

/** Every story's id, page by page, as the `total` header counts them. */
async function readStoryIds(ctx: Ctx): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const { body, headers } = await getJson(ctx, `${spaceUrl(ctx.settings)}/stories?page=${page}&per_page=${PER_PAGE}&story_only=1`, storiesSchema, `Listing the stories of ${where(ctx.settings)}`);
    ids.push(...body.stories.map((s) => s.id));
    const total = Number(headers.get('total'));
    if (body.stories.length === 0 || !Number.isFinite(total) || ids.length >= total) return { ids, pages: page };
  }
}

const isBlok = (value: unknown): value is Blok => value !== null && typeof value === 'object' && typeof (value as Blok)._uid === 'string' && typeof (value as Blok).component === 'string';

/** The blok and every blok nested in it (in `bloks` fields, at any depth). */
function* bloksOf(blok: Blok): Generator<Blok> {
  yield blok;
  for (const value of Object.values(blok)) {
    if (Array.isArray(value)) for (const item of value) if (isBlok(item)) yield* bloksOf(item);
  }
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

function storyStrings(story: z.infer<typeof storySchema>['story'], components: Components, codes: Map<string, string>): RemoteString[] {
  const strings: RemoteString[] = [];
  for (const blok of bloksOf(story.content)) {
    const root = blok === story.content;
    for (const [field, schema] of components.get(blok.component) ?? []) {
      const text = textOf(blok[field]);
      if (text === '') continue;
      const translations: Record<string, string> = {};
      const remote: Ref['remote'] = {};
      for (const [locale, code] of codes) {
        const seen = textOf(blok[`${field}${I18N}${code}`]);
        remote[locale] = { code, seen };
        if (seen !== '') translations[locale] = seen;
      }
      const limit = Number(schema.max_length);
      const notes = schema.description || schema.display_name;
      strings.push({
        key: root ? `${story.id}.${field}` : `${story.id}.${blok._uid}.${field}`,
        source: text,
        context: story.name,
        ...(notes ? { notes } : {}),
        ...(Number.isInteger(limit) && limit > 0 ? { maxLength: limit } : {}),
        ref: { story: story.id, uid: root ? null : blok._uid, field, remote } satisfies Ref as JsonValue,
        translations,
      });
    }
  }
  return strings;
}

const readStory = (ctx: Ctx, id: number) => getJson(ctx, `${spaceUrl(ctx.settings)}/stories/${id}`, storySchema, `Reading story ${id} of ${where(ctx.settings)}`).then((r) => r.body.story);

async function list(ctx: Ctx) {
  const { body } = await getJson(ctx, spaceUrl(ctx.settings), spaceSchema, `Reading ${where(ctx.settings)}`);
  const { codes, missing } = matchLocales(ctx.targetLocales, body.space.languages.map((l) => l.code), ctx.settings.locales);
  const components = await readComponents(ctx);
  const { ids, pages } = await readStoryIds(ctx);
  const units = new Map<string, StringUnit>();
  for (const id of ids) {
    const story = await readStory(ctx, id);
    const type = story.content.component;
    const unit = units.get(type) ?? { kind: 'strings', path: type, locales: [...codes.keys()], strings: [] };
    unit.strings.push(...storyStrings(story, components, codes));
    units.set(type, unit);
  }
  const skipped = missing.length > 0 ? `; ${missing.join(', ')} not among the space's languages, skipped (add the language in Storyblok or map it with the locales setting)` : '';
  return { units: [...units.values()], note: `${ids.length} stories in ${pages} pages${skipped}.` };
}

interface Outcome {
  written: number;
  kept: string[];
  gone: string[];
}

async function writeStory(ctx: Ctx, id: number, writes: { write: StringWrite; ref: Ref }[], outcome: Outcome): Promise<void> {
  const story = await readStory(ctx, id);
  const bloks = new Map([...bloksOf(story.content)].map((blok) => [blok._uid, blok]));
  let changed = 0;
  for (const { write, ref } of writes) {
    const blok = ref.uid === null ? story.content : bloks.get(ref.uid);
    if (!blok) {
      outcome.gone.push(write.key);
      continue;
    }
    const code = ref.remote[write.locale]!.code;
    const name = `${ref.field}${I18N}${code}`;
    const now = textOf(blok[name]);
    if (now === write.text) continue;
    // A value someone saved after the listing is theirs; the next sync imports it as a human translation.
    if (now !== ref.remote[write.locale]!.seen) {
      outcome.kept.push(`${write.key} (${code})`);
      continue;
    }
    blok[name] = write.text;
    changed++;
  }
  if (changed === 0) return;
  const response = await ctx.http.request(`${spaceUrl(ctx.settings)}/stories/${id}`, {
    method: 'PUT',
    headers: { ...authHeaders(ctx), 'content-type': 'application/json' },
    body: JSON.stringify({ story: { content: story.content } }),
  });
  if (!response.ok) throw await failure(response, `Writing translations into story ${id} of ${where(ctx.settings)}`);
  await response.body?.cancel();
  outcome.written += changed;
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const byStory = new Map<number, { write: StringWrite; ref: Ref }[]>();
  const unplaced: string[] = [];
  for (const w of writeBack.strings) {
    const ref = refSchema.safeParse(w.ref);
    if (!ref.success || !ref.data.remote[w.locale]) {
      unplaced.push(`${w.key} (${w.locale})`);
      continue;
    }
    byStory.set(ref.data.story, [...(byStory.get(ref.data.story) ?? []), { write: w, ref: ref.data }]);
  }
  const outcome: Outcome = { written: 0, kept: [], gone: [] };
  for (const [id, writes] of byStory) await writeStory(ctx, id, writes, outcome);
  const notes = [
    outcome.kept.length > 0 ? `Not overwritten, changed in Storyblok since the listing: ${outcome.kept.join(', ')}.` : '',
    outcome.gone.length > 0 ? `Bloks removed since the listing: ${outcome.gone.join(', ')}.` : '',
    unplaced.length > 0 ? `No Storyblok language or story for: ${unplaced.join(', ')}.` : '',
  ].filter(Boolean);
  return { written: outcome.written, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

/** Story events that change what Parlance lists (Storyblok sends no event for a saved draft). */
const SYNC_ACTIONS = new Set(['published', 'unpublished', 'deleted', 'moved']);
const webhookBody = z.object({ action: z.string(), space_id: z.union([z.number(), z.string()]), story_id: z.union([z.number(), z.string()]).optional() }).loose();

function verifyWebhook(request: WebhookRequest, secret: string, s: StoryblokSettings): WebhookVerdict {
  const given = request.headers.get('webhook-signature');
  if (given === null) return { verified: false, sync: false, reason: "No webhook-signature header: set the Storyblok webhook's secret to the connection's webhook_secret." };
  const expected = createHmac('sha1', secret).update(request.body).digest('hex');
  // The hex digest as Storyblok sends it, whatever its case or surrounding blanks.
  if (!sameSecret(given.trim().toLowerCase(), expected)) return { verified: false, sync: false, reason: "The webhook-signature does not match the body signed with the connection's webhook secret." };
  let body: z.infer<typeof webhookBody> | undefined;
  try {
    const parsed = webhookBody.safeParse(JSON.parse(new TextDecoder().decode(request.body)));
    if (parsed.success) body = parsed.data;
  } catch {
    // Signed but not JSON: nothing says what changed, so sync and let the listing tell.
  }
  if (body && String(body.space_id) !== s.space_id) return { verified: true, sync: false, reason: `The notification is about space ${body.space_id}, not ${s.space_id}.` };
  if (body && !SYNC_ACTIONS.has(body.action)) return { verified: true, sync: false, reason: `Action '${body.action}' does not change stories' text.` };
  return { verified: true, sync: true };
}

export const storyblok: Connector<StoryblokSettings, StoryblokSecrets> = {
  id: 'storyblok',
  name: 'Storyblok',
  category: 'content',
  direction: 'two_way',
  summary: "Storyblok stories' translatable text fields (field-level translation, nested bloks included), one path per content type, translations written into each story's draft through the Management API.",
  settings,
  secrets,
  webhooks: "Storyblok's webhook-signature header: hex HMAC-SHA1 of the body with the webhook secret (story published, unpublished, deleted or moved starts a sync)",
  list,
  write,
  verifyWebhook,
};
