/**
 * Drupal as a two-way content connector, through core's JSON:API module and the Content Translation module's
 * translations. Each configured field of each entity of each configured resource (`node/article`, `taxonomy_term/tags`,
 * …) is one string (key `<uuid>.<field>`; a formatted text field's summary is `<uuid>.<field>.summary`), read from
 * `/jsonapi/{entity_type}/{bundle}` under the source language's path prefix; each target language's translations are
 * read the way Drupal's JSON:API serves them, under that language's prefix (`/de/jsonapi/node/article`), an entity whose
 * `langcode` is not the asked language being Drupal's fallback to another translation, i.e. no translation yet.
 * Translations are written back with `PATCH /{prefix}/jsonapi/{entity_type}/{bundle}/{uuid}` (only the translated
 * fields), after reading the translation again so that a value a person changed since the listing (its `changed`
 * timestamp moved and the text differs) is left as it is. `changed` is the change signal because it is kept per
 * translation; the revision id (`drupal_internal__vid`) is the entity's and moves with an edit in any language.
 *
 * Limits, said rather than faked: core JSON:API cannot create a translation (a PATCH under a language the entity lacks
 * answers 405 "The requested translation of the resource object does not exist…", a POST cannot add one), so a
 * missing translation is created only with the contributed JSON:API Multilingual module (`POST …/{uuid}?langCode=`,
 * setting `create_translations`), and is otherwise reported once in the sync log. Deleting a translation is not
 * supported by JSON:API either, and Parlance never tries. Drupal core sends no change notifications: a site posts them
 * (ECA, Rules or a small custom module) with the webhook secret in `X-Parlance-Webhook-Secret`, or signed as
 * `X-Parlance-Signature` (timestamped HMAC). Failed Basic auth makes Drupal treat the request as anonymous rather than
 * refuse it, so the connector checks the entry point's `meta.links.me` before anything else.
 *
 * References: https://www.drupal.org/docs/core-modules-and-themes/core-modules/jsonapi-module/translations,
 * https://www.drupal.org/docs/core-modules-and-themes/core-modules/jsonapi-module/pagination (50 per page at most,
 * follow `links.next`), https://www.drupal.org/project/jsonapi_page_limit (the 50 limit),
 * https://www.drupal.org/project/jsonapi_multilingual, Simple OAuth's client credentials at /oauth/token (from
 * memory, see the mock's header), and drupal/drupal core/modules/jsonapi/src/Controller/EntryPoint.php (`meta.links.me`),
 * core/modules/jsonapi/tests/src/Functional/JsonApiFunctionalMultilingualTest.php (the PATCH document, the
 * `application/vnd.api+json` content type, the refusals quoted above),
 * core/modules/basic_auth/src/Authentication/Provider/BasicAuth.php (a failed login is anonymous).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';
import { verifyParlanceSignature } from './http.js';

const MACHINE_NAME = /^[a-z][a-z0-9_]*$/;
/** JSON:API's largest page (`OffsetPage::SIZE_MAX`). */
const PAGE_SIZE = 50;
/** At most this many pages per resource and language (100,000 entities), so a wrong filter cannot read forever. */
const MAX_PAGES = 2000;
const JSONAPI = 'application/vnd.api+json';
/** Length limits of base fields, from their definitions (config fields' limits are read from field_storage_config). */
const BASE_MAX_LENGTHS: Record<string, number> = { 'node.title': 255, 'taxonomy_term.name': 255, 'block_content.info': 255, 'media.name': 255, 'menu_link_content.title': 255 };

const machineName = (what: string) => z.string().regex(MACHINE_NAME, `Expected a Drupal ${what} machine name such as 'article'.`);

const Resource = z
  .object({
    entity_type: machineName('entity type').default('node').openapi({ description: 'The entity type: `node` (default), `taxonomy_term`, `block_content`, `media`, …' }),
    bundle: machineName('bundle').openapi({ description: 'The bundle (content type, vocabulary, block type): `article`.' }),
    fields: z
      .array(z.string().regex(/^[a-z][a-z0-9_]*$/, "Expected a field machine name such as 'title' or 'field_subtitle'."))
      .min(1)
      .openapi({ description: 'The translatable text fields to translate: `["title", "body"]`. Plain text (string, string_long) and formatted text (text, text_long, text_with_summary) fields.' }),
  })
  .strict();

const DrupalSettings = z
  .object({
    site_url: z.string().url().openapi({ description: 'The Drupal site, e.g. `https://www.example.com` (without `/jsonapi`).' }),
    api_path: z
      .string()
      .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, "Expected a path such as 'jsonapi'.")
      .default('jsonapi')
      .openapi({ description: "JSON:API's base path. Default `jsonapi` (JSON:API Extras can change it)." }),
    resources: z.array(Resource).min(1).openapi({ description: 'What is translated: `[{"entity_type": "node", "bundle": "article", "fields": ["title", "body"]}]`. Each is one path in Parlance.' }),
    locales: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ description: 'Parlance locale → Drupal langcode where they differ (`{"pt-BR": "pt-br", "zh-Hans": "zh-hans"}`); others match case-insensitively.' }),
    prefixes: z
      .record(z.string(), z.string().regex(/^[A-Za-z0-9_-]*$/, "Expected a path prefix such as 'de', or '' for none."))
      .default({})
      .openapi({ description: "Drupal langcode → its URL path prefix (Configuration → Regional and language → Detection and selection → URL), where it is not the langcode itself. The site's default language usually has none: `{\"en\": \"\"}`. Default: none for the source language, the langcode for the others." }),
    create_translations: z
      .enum(['never', 'jsonapi_multilingual'])
      .default('never')
      .openapi({ description: 'How a translation the entity does not have yet is created: `never` (core JSON:API cannot; reported in the sync log) or `jsonapi_multilingual` (the contributed JSON:API Multilingual module is installed).' }),
  })
  .strict();

const BasicSecrets = z
  .object({
    username: z.string().min(1).openapi({ description: 'An API user of the site (core HTTP Basic Authentication module).' }),
    password: z.string().min(1).openapi({ description: "That user's password." }),
  })
  .strict();
const TokenSecrets = z.object({ access_token: z.string().min(1).openapi({ description: 'An OAuth bearer token (Simple OAuth), sent as `Authorization: Bearer …`.' }) }).strict();
const ClientSecrets = z
  .object({
    client_id: z.string().min(1).openapi({ description: "A Simple OAuth consumer's client id (client credentials grant, at `/oauth/token`)." }),
    client_secret: z.string().min(1).openapi({ description: "The consumer's secret." }),
    scope: z.string().optional().openapi({ description: 'The scopes to ask for, space-separated (Simple OAuth 6); omitted for the consumer defaults.' }),
  })
  .strict();
const DrupalSecrets = z.union([BasicSecrets, TokenSecrets, ClientSecrets]).openapi({ description: 'One of: `username` + `password` (Basic auth), `access_token`, or `client_id` + `client_secret` (OAuth client credentials).' });

export type DrupalSettings = z.infer<typeof DrupalSettings>;
export type DrupalSecrets = z.infer<typeof DrupalSecrets>;
type DrupalResource = DrupalSettings['resources'][number];
type Ctx = ConnectorContext<DrupalSettings, DrupalSecrets>;

interface ResourceObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
}
interface JsonApiDocument<T> {
  data: T;
  links?: { next?: { href?: string } };
  meta?: { omitted?: unknown; links?: { me?: { meta?: { id?: string } } } };
}
type FormattedText = { value?: string | null; format?: string | null; summary?: string | null; processed?: unknown };

/** What `write` needs: where the string lives and what the target translation held when it was listed. */
type DrupalRef = {
  entity_type: string;
  bundle: string;
  uuid: string;
  field: string;
  /** `summary` for a formatted text's summary, else the value. */
  part: 'value' | 'summary';
  /** The text per Parlance target locale at listing time ('' for none): a different value now is a person's edit. */
  seen: Record<string, string>;
  /** Each target translation's `changed` at listing time (absent: no translation). */
  changed: Record<string, string>;
};

const site = (ctx: Ctx) => ctx.settings.site_url.replace(/\/+$/, '');
const typeName = (r: Pick<DrupalResource, 'entity_type' | 'bundle'>) => `${r.entity_type}--${r.bundle}`;
const pathOf = (r: Pick<DrupalResource, 'entity_type' | 'bundle'>) => `${r.entity_type}/${r.bundle}`;

/** The URL of `path` under JSON:API in a language (its path prefix, none for ''). */
function apiUrl(ctx: Ctx, langcode: string | null, path: string): string {
  const prefix = langcode === null ? '' : (ctx.settings.prefixes[langcode] ?? langcode);
  return `${site(ctx)}${prefix ? `/${prefix}` : ''}/${ctx.settings.api_path}${path}`;
}

/** The source language's prefix: the setting, else none (the site's default language is usually unprefixed). */
const sourcePrefix = (ctx: Ctx, code: string) => (ctx.settings.prefixes[code] !== undefined ? code : null);

/** A client-credentials token per secrets, fetched again shortly before Simple OAuth's `expires_in` runs out. */
const tokens = new WeakMap<Ctx['secrets'], Promise<{ token: string; until: number }>>();

/** The Authorization header: Basic, the bearer token, or one fetched with the client credentials. */
async function authorization(ctx: Ctx): Promise<string> {
  const secrets = ctx.secrets as Record<string, string | undefined>;
  if (secrets.username !== undefined) return `Basic ${Buffer.from(`${secrets.username}:${secrets.password ?? ''}`, 'utf8').toString('base64')}`;
  if (secrets.access_token !== undefined) return `Bearer ${secrets.access_token}`;
  let cached = tokens.get(ctx.secrets);
  if (!cached || (await cached.catch(() => ({ until: 0 }))).until <= Date.now()) {
    cached = fetchToken(ctx, secrets);
    tokens.set(ctx.secrets, cached);
    cached.catch(() => tokens.delete(ctx.secrets));
  }
  return `Bearer ${(await cached).token}`;
}

async function fetchToken(ctx: Ctx, secrets: Record<string, string | undefined>): Promise<{ token: string; until: number }> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: secrets.client_id ?? '', client_secret: secrets.client_secret ?? '' });
  if (secrets.scope) form.set('scope', secrets.scope);
  const body = await ctx.http.json<{ access_token?: string; expires_in?: number }>(`${site(ctx)}/oauth/token`, {
    what: 'Getting an OAuth token from Drupal (client credentials at /oauth/token)',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  });
  if (!body?.access_token) throw new ConnectorError('auth', `Getting an OAuth token from Drupal: ${site(ctx)}/oauth/token answered without an access_token; check the consumer's client_id and secret and that Simple OAuth is installed.`);
  // Renewed 30 s before it expires (Simple OAuth's default lifetime is 300 s).
  const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
  return { token: body.access_token, until: Date.now() + Math.max(lifetime - 30, 1) * 1000 };
}

async function headers(ctx: Ctx, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { accept: JSONAPI, authorization: await authorization(ctx), ...extra };
}

async function get<T>(ctx: Ctx, url: string, what: string): Promise<JsonApiDocument<T>> {
  const body = await ctx.http.json<JsonApiDocument<T>>(url, { what, headers: await headers(ctx) });
  if (!body || typeof body !== 'object' || !('data' in body)) throw new ConnectorError('config', `${what}: the answer is not a JSON:API document; is site_url a Drupal site with the JSON:API module on (${url})?`);
  return body;
}

/**
 * The entry point: JSON:API is on, and the credentials were accepted. Drupal treats failed Basic credentials as an
 * anonymous request (no 401 until anonymous is denied), so an answer without `meta.links.me` means they were refused.
 */
async function checkIdentity(ctx: Ctx): Promise<void> {
  const body = await get<unknown[]>(ctx, apiUrl(ctx, null, ''), "Reading Drupal's JSON:API entry point");
  if (!body.meta?.links?.me) {
    throw new ConnectorError('auth', `Reading Drupal's JSON:API entry point: ${new URL(site(ctx)).host} served the request as anonymous, so it did not accept the credentials (a wrong username or password, a Basic auth module that is off, or a token it did not recognise). Check the connection's secrets, then PATCH it.`);
  }
}

interface LocalePlan {
  source: string;
  /** Parlance tag → Drupal langcode, for the target locales the site has. */
  targets: Map<string, string>;
  skipped: string[];
  /** False when the API user may not list the site's languages (every target assumed to exist). */
  listed: boolean;
}

/** The site's languages (config entities, readable with "administer languages"), without `und`/`zxx`. */
async function readLanguages(ctx: Ctx): Promise<string[] | null> {
  const url = `${apiUrl(ctx, null, '/configurable_language/configurable_language')}?page[limit]=${PAGE_SIZE}`;
  const response = await ctx.http.request(url, { headers: await headers(ctx) });
  if (response.status === 403 || response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, 'Listing the Drupal languages');
  const body = (await response.json()) as JsonApiDocument<ResourceObject[]>;
  const codes = (body.data ?? []).filter((l) => l.attributes.locked !== true).map((l) => String(l.attributes.drupal_internal__id));
  // Config entities the user may not view are omitted from the collection rather than refused.
  return codes.length ? codes : null;
}

async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const languages = await readLanguages(ctx);
  const wanted = (tag: string) => ctx.settings.locales[tag] ?? tag;
  if (!languages) {
    // Without the list, a language is there when JSON:API answers under its prefix (an unknown prefix is a 404 route).
    const source = wanted(ctx.sourceLocale);
    const targets = new Map<string, string>();
    const skipped: string[] = [];
    for (const tag of ctx.targetLocales) {
      const code = wanted(tag);
      if (code === source) continue;
      const response = await ctx.http.request(apiUrl(ctx, code, ''), { headers: await headers(ctx) });
      await response.body?.cancel();
      if (response.status === 404) skipped.push(tag);
      else if (response.ok) targets.set(tag, code);
      else throw await failure(response, `Checking the Drupal language '${code}' (its JSON:API entry point)`);
    }
    return { source, targets, skipped, listed: false };
  }
  const source = matchLocales([ctx.sourceLocale], languages, ctx.settings.locales).codes.get(ctx.sourceLocale);
  if (!source) throw new ConnectorError('config', `Drupal has no language for the project's source locale '${ctx.sourceLocale}' (it has ${languages.join(', ')}). Add it under Configuration → Regional and language → Languages, or map it in the \`locales\` setting.`);
  const targets = new Map([...matchLocales(ctx.targetLocales, languages, ctx.settings.locales).codes].filter(([, code]) => code !== source));
  return { source, targets, skipped: ctx.targetLocales.filter((tag) => !targets.has(tag)), listed: true };
}

interface FieldInfo {
  label?: string;
  description?: string;
  translatable?: boolean;
  maxLength?: number;
}

/** Every resource object of a config collection (field_config, field_storage_config), or null when not readable. */
async function readConfig(ctx: Ctx, type: string): Promise<ResourceObject[] | null> {
  const all: ResourceObject[] = [];
  let url: string | undefined = `${apiUrl(ctx, null, `/${type}/${type}`)}?page[limit]=${PAGE_SIZE}`;
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const response = await ctx.http.request(url, { headers: await headers(ctx) });
    if (response.status === 403 || response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw await failure(response, `Reading Drupal's ${type} (field descriptions and lengths)`);
    const body = (await response.json()) as JsonApiDocument<ResourceObject[]>;
    all.push(...(body.data ?? []));
    url = body.links?.next?.href;
  }
  return all.length ? all : null;
}

/** Labels, descriptions, the translatable flag and lengths of the configured fields; what the user may not read stays unknown. */
async function readFields(ctx: Ctx): Promise<{ fields: Map<string, FieldInfo>; read: boolean }> {
  const fields = new Map<string, FieldInfo>(Object.entries(BASE_MAX_LENGTHS).map(([key, maxLength]) => [key, { maxLength }]));
  const configs = await readConfig(ctx, 'field_config');
  const storages = await readConfig(ctx, 'field_storage_config');
  for (const storage of storages ?? []) {
    const a = storage.attributes;
    const max = (a.settings as { max_length?: unknown } | undefined)?.max_length;
    if (typeof max === 'number' && max > 0) fields.set(`${String(a.entity_type)}.${String(a.field_name)}`, { maxLength: max });
  }
  for (const config of configs ?? []) {
    const a = config.attributes;
    const storage = fields.get(`${String(a.entity_type)}.${String(a.field_name)}`);
    fields.set(`${String(a.entity_type)}.${String(a.bundle)}.${String(a.field_name)}`, {
      ...(storage?.maxLength ? { maxLength: storage.maxLength } : {}),
      ...(typeof a.label === 'string' ? { label: a.label } : {}),
      ...(typeof a.description === 'string' && a.description.trim() ? { description: a.description.trim() } : {}),
      ...(typeof a.translatable === 'boolean' ? { translatable: a.translatable } : {}),
    });
  }
  return { fields, read: configs !== null };
}

const fieldInfo = (fields: Map<string, FieldInfo>, r: DrupalResource, field: string): FieldInfo => fields.get(`${r.entity_type}.${r.bundle}.${field}`) ?? fields.get(`${r.entity_type}.${field}`) ?? {};

/** Every entity of a resource in one language (Drupal's fallback included), following `links.next`. */
async function readCollection(ctx: Ctx, r: DrupalResource, langcode: string | null): Promise<{ entities: ResourceObject[]; pages: number }> {
  // `changed` is per translation (a revision id is the whole entity's, moved by an edit in any language).
  const attributes = ['langcode', 'changed', ...r.fields];
  const query = `page[limit]=${PAGE_SIZE}&sort=id&fields[${typeName(r)}]=${attributes.join(',')}`;
  let url: string | undefined = `${apiUrl(ctx, langcode, `/${pathOf(r)}`)}?${query}`;
  const entities: ResourceObject[] = [];
  let pages = 0;
  while (url) {
    if (++pages > MAX_PAGES) throw new ConnectorError('config', `Listing Drupal ${pathOf(r)}: more than ${MAX_PAGES} pages of ${PAGE_SIZE}; narrow the resources.`);
    const body: JsonApiDocument<ResourceObject[]> = await get<ResourceObject[]>(ctx, url, `Listing Drupal ${pathOf(r)}${langcode ? ` (${langcode})` : ''}, page ${pages}`);
    if (!Array.isArray(body.data)) throw new ConnectorError('config', `Listing Drupal ${pathOf(r)}: the answer's data is not a list.`);
    entities.push(...body.data);
    url = body.links?.next?.href;
  }
  return { entities, pages };
}

/** A field's text (or its formatted text's summary); a value that is neither text nor formatted text names the wrong field. */
function fieldText(r: DrupalResource, entity: ResourceObject, field: string, part: 'value' | 'summary'): string {
  if (!(field in entity.attributes)) throw new ConnectorError('config', `Drupal ${pathOf(r)} has no field '${field}' (entity ${entity.id} has ${Object.keys(entity.attributes).join(', ')}). Check the \`fields\` setting, and that the field is not disabled in JSON:API Extras.`);
  const value = entity.attributes[field];
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return part === 'value' ? value : '';
  if (typeof value === 'object' && !Array.isArray(value) && 'value' in value) {
    const text = (value as FormattedText)[part];
    return typeof text === 'string' ? text : '';
  }
  throw new ConnectorError('config', `Drupal ${pathOf(r)}, entity ${entity.id}: field '${field}' is not a text field (it holds ${Array.isArray(value) ? 'several values' : typeof value}). Name only single-value text fields in \`fields\`.`);
}

const isFormatted = (entity: ResourceObject, field: string) => typeof entity.attributes[field] === 'object' && entity.attributes[field] !== null && !Array.isArray(entity.attributes[field]);
const langOf = (entity: ResourceObject) => String(entity.attributes.langcode ?? '');
const labelOf = (entity: ResourceObject) => ['title', 'name', 'info', 'label'].map((f) => entity.attributes[f]).find((v): v is string => typeof v === 'string');

async function listResource(ctx: Ctx, r: DrupalResource, plan: LocalePlan, fields: Map<string, FieldInfo>): Promise<{ unit: StringUnit; pages: number; withoutSource: number }> {
  for (const field of r.fields) {
    if (fieldInfo(fields, r, field).translatable === false) throw new ConnectorError('config', `Drupal ${pathOf(r)}: field '${field}' is not translatable, so Drupal refuses to change it in a translation ("Non-translatable fields can only be changed when updating the original language."). Make it translatable (Content language settings) or remove it from \`fields\`.`);
  }
  const source = await readCollection(ctx, r, sourcePrefix(ctx, plan.source));
  let pages = source.pages;
  const versions = new Map<string, Map<string, ResourceObject>>();
  for (const [tag, code] of plan.targets) {
    const read = await readCollection(ctx, r, code);
    pages += read.pages;
    // An entity served in another language is Drupal's fallback: it has no translation in this one.
    versions.set(tag, new Map(read.entities.filter((e) => langOf(e) === code).map((e) => [e.id, e])));
  }
  const strings: RemoteString[] = [];
  let withoutSource = 0;
  for (const entity of source.entities) {
    if (langOf(entity) !== plan.source) {
      withoutSource++;
      continue;
    }
    const label = labelOf(entity);
    for (const field of r.fields) {
      const info = fieldInfo(fields, r, field);
      const parts: ('value' | 'summary')[] = isFormatted(entity, field) ? ['value', 'summary'] : ['value'];
      for (const part of parts) {
        const text = fieldText(r, entity, field, part);
        if (!text) continue;
        const seen: Record<string, string> = {};
        const changed: Record<string, string> = {};
        for (const [tag, byId] of versions) {
          const version = byId.get(entity.id);
          seen[tag] = version ? fieldText(r, version, field, part) : '';
          if (version) changed[tag] = String(version.attributes.changed ?? '');
        }
        const ref: DrupalRef = { entity_type: r.entity_type, bundle: r.bundle, uuid: entity.id, field, part, seen, changed };
        const maxLength = part === 'value' ? info.maxLength : undefined;
        const what = `${info.label ?? field}${part === 'summary' ? ' (summary)' : ''}`;
        strings.push({
          key: part === 'value' ? `${entity.id}.${field}` : `${entity.id}.${field}.summary`,
          source: text,
          context: label && !['title', 'name', 'info'].includes(field) ? `${pathOf(r)} "${label}": ${what}` : `${pathOf(r)}: ${what}`,
          ...(info.description ? { notes: info.description } : {}),
          ...(maxLength ? { maxLength } : {}),
          ref,
          translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
        });
      }
    }
  }
  return { unit: { kind: 'strings', path: pathOf(r), strings, locales: [...plan.targets.keys()] }, pages, withoutSource };
}

async function list(ctx: Ctx) {
  await checkIdentity(ctx);
  const plan = await planLocales(ctx);
  const { fields, read } = await readFields(ctx);
  const units: StringUnit[] = [];
  let pages = 0;
  let withoutSource = 0;
  for (const r of ctx.settings.resources) {
    const listed = await listResource(ctx, r, plan, fields);
    units.push(listed.unit);
    pages += listed.pages;
    withoutSource += listed.withoutSource;
  }
  const notes = [`Read ${pages} page(s) of ${ctx.settings.resources.map(pathOf).join(', ')} through JSON:API, source language ${plan.source}.`];
  if (withoutSource) notes.push(`${withoutSource} entit(y/ies) have no ${plan.source} translation and were left out.`);
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: Drupal has no such language (add it under Configuration → Regional and language → Languages).`);
  if (!plan.listed) notes.push(`The API user may not list the site's languages ("administer languages"), so each target language was checked under its path prefix: found ${[...plan.targets.values()].join(', ') || 'none'}.`);
  if (!read) notes.push('The API user may not read the field configuration, so no field descriptions or configured lengths were read.');
  return { units, note: notes.join(' ') };
}

function readRef(write: StringWrite): DrupalRef {
  const ref = write.ref as DrupalRef | undefined;
  if (!ref || typeof ref.uuid !== 'string' || typeof ref.field !== 'string' || typeof ref.entity_type !== 'string' || typeof ref.bundle !== 'string') {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Drupal: the string carries no Drupal reference; sync again so it is listed anew.`);
  }
  return ref;
}

interface Outcome {
  written: number;
  kept: string[];
  missing: string[];
  gone: string[];
}

/** One entity's translation in one language now: null when the entity is gone (404). */
async function readTranslation(ctx: Ctx, r: DrupalResource, uuid: string, code: string): Promise<ResourceObject | null> {
  const url = apiUrl(ctx, code, `/${pathOf(r)}/${encodeURIComponent(uuid)}`);
  const response = await ctx.http.request(url, { headers: await headers(ctx) });
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, `Reading Drupal ${pathOf(r)} ${uuid} (${code})`);
  return ((await response.json()) as JsonApiDocument<ResourceObject>).data;
}

/** Writes one entity's fields in one language, leaving any value a person changed since the listing as it is. */
async function writeTranslation(ctx: Ctx, r: DrupalResource, uuid: string, code: string, writes: { write: StringWrite; ref: DrupalRef }[]): Promise<Outcome> {
  const outcome: Outcome = { written: 0, kept: [], missing: [], gone: [] };
  const now = await readTranslation(ctx, r, uuid, code);
  if (!now) {
    outcome.gone.push(`${pathOf(r)} ${uuid}`);
    return outcome;
  }
  const exists = langOf(now) === code;
  if (!exists && ctx.settings.create_translations === 'never') {
    outcome.missing.push(`${uuid} (${code})`);
    return outcome;
  }
  const attributes: Record<string, unknown> = {};
  for (const { write, ref } of writes) {
    const current = exists ? fieldText(r, now, ref.field, ref.part) : '';
    if (current === write.text) continue;
    const untouched = (ref.changed[write.locale] ?? '') === (exists ? String(now.attributes.changed ?? '') : '');
    if (!untouched && current !== (ref.seen[write.locale] ?? '')) {
      outcome.kept.push(`${uuid}.${ref.field}${ref.part === 'summary' ? '.summary' : ''} (${write.locale})`);
      continue;
    }
    if (isFormatted(now, ref.field)) {
      // Formatted text: the value with its format (taken from the translation, else the fallback it was served as).
      const base = (attributes[ref.field] as FormattedText | undefined) ?? (now.attributes[ref.field] as FormattedText);
      const next: FormattedText = { value: exists ? (base.value ?? '') : '', format: base.format ?? null, ...(typeof base.summary === 'string' ? { summary: exists ? base.summary : '' } : {}) };
      if (attributes[ref.field]) Object.assign(next, attributes[ref.field]);
      next[ref.part] = write.text;
      attributes[ref.field] = next;
    } else {
      attributes[ref.field] = write.text;
    }
    outcome.written++;
  }
  if (outcome.written === 0) return outcome;
  const names = Object.keys(attributes).join(', ');
  if (exists) {
    await ctx.http.json(apiUrl(ctx, code, `/${pathOf(r)}/${encodeURIComponent(uuid)}`), {
      what: `Writing the ${code} translation of Drupal ${pathOf(r)} ${uuid} (${names})`,
      method: 'PATCH',
      headers: await headers(ctx, { 'content-type': JSONAPI }),
      body: JSON.stringify({ data: { type: typeName(r), id: uuid, attributes } }),
    });
  } else {
    // JSON:API Multilingual: POST to the entity with ?langCode= creates the translation (409 when it exists already).
    await ctx.http.json(`${apiUrl(ctx, null, `/${pathOf(r)}/${encodeURIComponent(uuid)}`)}?langCode=${encodeURIComponent(code)}`, {
      what: `Creating the ${code} translation of Drupal ${pathOf(r)} ${uuid} (${names}) through JSON:API Multilingual`,
      method: 'POST',
      headers: await headers(ctx, { 'content-type': JSONAPI }),
      body: JSON.stringify({ data: { type: typeName(r), id: uuid, attributes } }),
    });
  }
  return outcome;
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  await checkIdentity(ctx);
  const plan = await planLocales(ctx);
  const groups = new Map<string, { r: DrupalResource; uuid: string; code: string; writes: { write: StringWrite; ref: DrupalRef }[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    const code = plan.targets.get(one.locale);
    // A project locale Drupal has no language for (the listing said so) has nowhere to go.
    if (!code) {
      absent.add(one.locale);
      continue;
    }
    const r = ctx.settings.resources.find((x) => x.entity_type === ref.entity_type && x.bundle === ref.bundle) ?? { entity_type: ref.entity_type, bundle: ref.bundle, fields: [ref.field] };
    const id = `${pathOf(r)}\u0000${ref.uuid}\u0000${code}`;
    const group = groups.get(id) ?? { r, uuid: ref.uuid, code, writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  const total: Outcome = { written: 0, kept: [], missing: [], gone: [] };
  for (const group of groups.values()) {
    const result = await writeTranslation(ctx, group.r, group.uuid, group.code, group.writes);
    total.written += result.written;
    total.kept.push(...result.kept);
    total.missing.push(...result.missing);
    total.gone.push(...result.gone);
  }
  const notes: string[] = [];
  if (total.kept.length) notes.push(`Left ${total.kept.length} value(s) a person changed in Drupal since the listing: ${total.kept.slice(0, 10).join(', ')}.`);
  if (total.missing.length) notes.push(`Not written: ${total.missing.length} translation(s) do not exist in Drupal yet and core JSON:API cannot create them (${total.missing.slice(0, 10).join(', ')}); add them in Drupal (Translate tab) or install JSON:API Multilingual and set create_translations.`);
  if (total.gone.length) notes.push(`Not written: ${total.gone.length} entit(y/ies) no longer exist in Drupal (${total.gone.slice(0, 10).join(', ')}); the next sync removes their strings.`);
  if (absent.size) notes.push(`Not written: Drupal has no language for ${[...absent].join(', ')}.`);
  return { written: total.written, url: site(ctx), ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/**
 * Drupal core sends nothing itself: the site's ECA model, Rules action or custom module posts `{ event, entity_type,
 * bundle, uuid }` with the secret in X-Parlance-Webhook-Secret, or signed in X-Parlance-Signature (refused when older
 * than five minutes). A notification about another resource is verified but starts no sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: DrupalSettings): WebhookVerdict {
  const signature = request.headers.get('x-parlance-signature');
  const given = request.headers.get('x-parlance-webhook-secret');
  if (signature) {
    const checked = verifyParlanceSignature(signature, webhookSecret, request.body);
    if (!checked.ok) return { verified: false, sync: false, reason: `Drupal notification: ${checked.reason}` };
  } else if (given) {
    if (!sameSecret(given, webhookSecret)) return { verified: false, sync: false, reason: "The Drupal notification's X-Parlance-Webhook-Secret does not match the connection's webhook secret." };
  } else {
    return { verified: false, sync: false, reason: 'No X-Parlance-Signature or X-Parlance-Webhook-Secret header on the Drupal notification; see the set-up guide for the ECA model or module that sends it.' };
  }
  let event: { entity_type?: unknown; bundle?: unknown };
  try {
    event = JSON.parse(new TextDecoder().decode(request.body)) as typeof event;
  } catch {
    return { verified: true, sync: true };
  }
  if (typeof event?.entity_type === 'string' && typeof event.bundle === 'string' && !settings.resources.some((r) => r.entity_type === event.entity_type && r.bundle === event.bundle)) {
    return { verified: true, sync: false, reason: `The Drupal notification is about ${event.entity_type}/${event.bundle}, which the connection does not translate.` };
  }
  return { verified: true, sync: true };
}

export const drupal: Connector<DrupalSettings, DrupalSecrets> = {
  id: 'drupal',
  name: 'Drupal',
  category: 'content',
  direction: 'two_way',
  summary: "Drupal nodes (and other entity types) through core JSON:API and Content Translation: chosen text fields are translated and written back into each entity's translations.",
  settings: DrupalSettings,
  secrets: DrupalSecrets,
  webhooks: 'Drupal core sends no notifications: an ECA model or custom module posts to the webhook URL with the webhook secret in X-Parlance-Webhook-Secret (compared in constant time) or an X-Parlance-Signature (t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">, refused after five minutes).',
  list,
  write,
  verifyWebhook,
};
