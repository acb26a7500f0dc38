/**
 * Builder.io as a two-way content connector. Entries of one model are read with the Content API
 * (`GET https://cdn.builder.io/api/v3/content/{model}?apiKey=…&includeUnpublished=true&limit=&offset=`, drafts
 * included, in a stable order (`sort.createdDate=1`), `cachebust=true` so the CDN answers what is stored now); each
 * configured field of an entry's `data` that holds a localized value
 * (`{ "@type": "@builder.io/core:LocalizedValue", "Default": "…", "de-DE": "…" }`) is one string (key
 * `<entry id>.<field>`), its source the `Default` value, its translations the space's locale slots.
 * Translations are written back with one Write API `PATCH https://builder.io/api/v1/write/{model}/{id}` per entry
 * (`Authorization: Bearer <private key>`, a partial `data` with the whole localized value of each changed field), after
 * reading the entry again: when its `lastUpdated` moved since the listing, a slot a person changed meanwhile is left
 * as it is, and a field whose `Default` changed is not written (the next sync translates the new text).
 *
 * Locales: the space's locale list is the enum of its `locale` custom targeting attribute, read from the Admin API
 * (`POST https://builder.io/api/v2/admin`, GraphQL `{ settings }`); Builder names a locale as the space does (`de-DE`),
 * mapped to the project's tags by the `locales` setting, else up to case and `_`/`-`. A project locale the space lacks
 * is reported in the sync's log (adding locales to a space is a settings change left to a person).
 *
 * Limits, said rather than faked: only top-level fields of `data` are read (no blocks of visual content, no nested
 * lists); Builder states no field lengths. Builder does not sign its webhooks: a model webhook (or a global one) carries
 * custom headers, and the set-up guide has it send the connection's secret in `X-Parlance-Webhook-Secret`, compared
 * in constant time.
 *
 * References: https://www.builder.io/c/docs/content-api and /query-api (`apiKey`, `limit`, `offset`,
 * `includeUnpublished`, `cachebust`, `{ results: [...] }`), https://www.builder.io/c/docs/write-api (PATCH with a
 * partial `data`, Bearer private key), https://www.builder.io/c/docs/localization and
 * /custom-targeting-attributes (the `locale` attribute, `LocalizedValue` with `Default`), https://www.builder.io/c/docs/webhooks
 * and /global-webhooks (`{ newValue, previousValue, modelName, operation }`, custom headers), the admin API
 * (https://www.builder.io/c/docs/admin-graphql-schema).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { matchLocales } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

/** Builder's Content API answers at most 100 entries a request. */
const PAGE_SIZE = 100;
/** At most this many pages of one model (20 000 entries). */
const MAX_PAGES = 200;
export const LOCALIZED_TYPE = '@builder.io/core:LocalizedValue';
const DEFAULT_SLOT = 'Default';
const MODEL = /^[A-Za-z0-9_-]+$/;
const FIELD = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

const BuilderSettings = z
  .object({
    model: z.string().regex(MODEL, "Expected a Builder model's unique identifier such as 'blog-article'.").openapi({ description: 'The model whose entries are translated (its unique identifier, e.g. `blog-article`): one path in Parlance.' }),
    fields: z
      .array(z.string().regex(FIELD, "Expected a top-level field name of the model's data, such as 'title'."))
      .min(1)
      .openapi({ description: 'The localized text fields of the entries\' `data` to translate: `["title", "description"]`. Each must be marked Localized in the model.' }),
    locales: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ description: 'Parlance locale → Builder locale where they differ (`{"de": "de-DE"}`); others match case-insensitively, `_` read as `-`.' }),
    content_api_url: z.string().url().default('https://cdn.builder.io').openapi({ description: 'The Content API. Default `https://cdn.builder.io`.' }),
    write_api_url: z.string().url().default('https://builder.io').openapi({ description: 'The Write and Admin APIs. Default `https://builder.io`.' }),
  })
  .strict();

const BuilderSecrets = z
  .object({
    public_api_key: z.string().min(1).openapi({ description: 'The space\'s Public API Key (Account Settings → Space → API keys), for the Content API.' }),
    private_key: z.string().min(1).openapi({ description: "A Private API Key of the space (Account Settings → Space → Private keys), for drafts, the Write API and the space's locales." }),
  })
  .strict();

export type BuilderSettings = z.infer<typeof BuilderSettings>;
export type BuilderSecrets = z.infer<typeof BuilderSecrets>;
type Ctx = ConnectorContext<BuilderSettings, BuilderSecrets>;

export interface BuilderEntry {
  id: string;
  name?: string;
  lastUpdated?: number;
  data?: Record<string, unknown>;
}
type LocalizedValue = { '@type': typeof LOCALIZED_TYPE } & Record<string, unknown>;
/** What `write` needs: the entry, the field, its source and each slot as listed, and the entry's lastUpdated then. */
type BuilderRef = { id: string; field: string; source: string; lastUpdated: number | null; seen: Record<string, string> };

const trim = (url: string) => url.replace(/\/+$/, '');
const auth = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.secrets.private_key}` });

interface LocalePlan {
  /** Parlance tag → Builder locale, for the target locales the space has. */
  targets: Map<string, string>;
  skipped: string[];
  remote: string[];
}

/** The space's locales: the enum of its `locale` custom targeting attribute, from the Admin API. */
async function planLocales(ctx: Ctx): Promise<LocalePlan> {
  const what = "Reading the Builder space's locales (Admin API settings)";
  const body = await ctx.http.json<{ data?: { settings?: { customTargetingAttributes?: Record<string, { enum?: unknown }> } | null }; errors?: { message?: string }[] }>(`${trim(ctx.settings.write_api_url)}/api/v2/admin`, {
    what,
    method: 'POST',
    headers: { ...auth(ctx), 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ settings }' }),
  });
  if (body?.errors?.length) throw new ConnectorError('config', `${what}: Builder answered ${body.errors.map((e) => e.message).join('; ')}.`);
  const values = body?.data?.settings?.customTargetingAttributes?.locale?.enum;
  if (!Array.isArray(values) || values.length === 0) {
    throw new ConnectorError('config', `${what}: the space has no locales (no \`locale\` custom targeting attribute with values). Add the locales under Space Settings → Localization.`);
  }
  const remote = values.filter((v): v is string => typeof v === 'string' && v !== DEFAULT_SLOT);
  const targets = matchLocales(ctx.targetLocales, remote, ctx.settings.locales).codes;
  return { targets, skipped: ctx.targetLocales.filter((tag) => !targets.has(tag)), remote };
}

function contentUrl(ctx: Ctx, suffix: string, query: Record<string, string>): string {
  const params = new URLSearchParams({ apiKey: ctx.secrets.public_api_key, includeUnpublished: 'true', cachebust: 'true', ...query });
  return `${trim(ctx.settings.content_api_url)}/api/v3/content/${encodeURIComponent(ctx.settings.model)}${suffix}?${params}`;
}

async function readPage(ctx: Ctx, offset: number, page: number): Promise<BuilderEntry[]> {
  const what = `Listing the Builder model '${ctx.settings.model}' (page ${page})`;
  const body = await ctx.http.json<{ results?: unknown }>(contentUrl(ctx, '', { limit: String(PAGE_SIZE), offset: String(offset), 'sort.createdDate': '1' }), { what, headers: auth(ctx) });
  if (!body || !Array.isArray(body.results)) throw new ConnectorError('config', `${what}: the answer has no results list; is content_api_url Builder's Content API?`);
  return body.results as BuilderEntry[];
}

async function readAll(ctx: Ctx): Promise<{ entries: BuilderEntry[]; pages: number }> {
  const entries: BuilderEntry[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const results = await readPage(ctx, (page - 1) * PAGE_SIZE, page);
    entries.push(...results);
    if (results.length < PAGE_SIZE) return { entries, pages: page };
  }
  throw new ConnectorError('config', `The Builder model '${ctx.settings.model}' has more than ${MAX_PAGES * PAGE_SIZE} entries; split it, or ask for a higher limit.`);
}

/** One entry as stored now, or null when it is gone. */
async function readEntry(ctx: Ctx, id: string): Promise<BuilderEntry | null> {
  const what = `Reading Builder entry ${id} of '${ctx.settings.model}'`;
  const response = await ctx.http.request(contentUrl(ctx, '', { 'query.id': id, limit: '1' }), { headers: auth(ctx) });
  if (!response.ok) throw await failure(response, what);
  const body = (await response.json()) as { results?: BuilderEntry[] };
  return body.results?.find((e) => e.id === id) ?? null;
}

const isLocalized = (value: unknown): value is LocalizedValue => typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Record<string, unknown>)['@type'] === LOCALIZED_TYPE;

/** A field's localized value; absent is null; anything else is a setting naming a field that is not localized text. */
function localizedField(ctx: Ctx, entry: BuilderEntry, field: string): LocalizedValue | null {
  const value = entry.data?.[field];
  if (value === undefined || value === null || value === '') return null;
  if (!isLocalized(value)) {
    const held = typeof value === 'string' ? 'plain text' : Array.isArray(value) ? 'a list' : typeof value;
    throw new ConnectorError('config', `Builder entry ${entry.id} of '${ctx.settings.model}': field '${field}' is not a localized value (it holds ${held}). Mark the field Localized in the model, or remove it from \`fields\`.`);
  }
  return value;
}

function slot(ctx: Ctx, entry: BuilderEntry, field: string, value: LocalizedValue, code: string): string {
  const text = value[code];
  if (text === undefined || text === null) return '';
  if (typeof text !== 'string') throw new ConnectorError('config', `Builder entry ${entry.id} of '${ctx.settings.model}': field '${field}' holds ${typeof text} in '${code}', not text. Name only text fields in \`fields\`.`);
  return text;
}

async function list(ctx: Ctx) {
  const plan = await planLocales(ctx);
  const { entries, pages } = await readAll(ctx);
  const strings: RemoteString[] = [];
  let empty = 0;
  for (const entry of entries) {
    for (const field of ctx.settings.fields) {
      const value = localizedField(ctx, entry, field);
      const source = value ? slot(ctx, entry, field, value, DEFAULT_SLOT) : '';
      if (!value || !source) {
        empty++;
        continue;
      }
      const seen: Record<string, string> = {};
      for (const [tag, code] of plan.targets) seen[tag] = slot(ctx, entry, field, value, code);
      const ref: BuilderRef = { id: entry.id, field, source, lastUpdated: entry.lastUpdated ?? null, seen };
      strings.push({
        key: `${entry.id}.${field}`,
        source,
        context: `${ctx.settings.model}: ${entry.name ?? entry.id} (${field})`,
        ref,
        translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
      });
    }
  }
  const unit: StringUnit = { kind: 'strings', path: ctx.settings.model, strings, locales: [...plan.targets.keys()] };
  const notes = [`Read ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} of '${ctx.settings.model}' in ${pages} page(s); space locales ${plan.remote.join(', ')}.`];
  if (empty) notes.push(`${empty} field value(s) with no Default text were left out.`);
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: the Builder space has no such locale (add it under Space Settings → Localization, or map it in \`locales\`).`);
  return { units: [unit], note: notes.join(' ') };
}

function readRef(write: StringWrite): BuilderRef {
  const ref = write.ref as BuilderRef | undefined;
  if (!ref || typeof ref.id !== 'string' || typeof ref.field !== 'string' || typeof ref.seen !== 'object') {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Builder: the string carries no Builder reference; sync again so it is listed anew.`);
  }
  return ref;
}

interface EntryResult {
  written: number;
  kept: string[];
  stale: string[];
  gone: boolean;
}

/** Writes one entry's translations in one PATCH, leaving slots a person changed since the listing as they are. */
async function writeEntry(ctx: Ctx, plan: LocalePlan, id: string, writes: { write: StringWrite; ref: BuilderRef }[]): Promise<EntryResult> {
  const result: EntryResult = { written: 0, kept: [], stale: [], gone: false };
  const now = await readEntry(ctx, id);
  if (!now) return { ...result, gone: true };
  const changed = new Map<string, LocalizedValue>();
  for (const { write, ref } of writes) {
    const code = plan.targets.get(write.locale)!;
    const value = changed.get(ref.field) ?? localizedField(ctx, now, ref.field);
    if (!value || slot(ctx, now, ref.field, value, DEFAULT_SLOT) !== ref.source) {
      result.stale.push(`${id}.${ref.field}`);
      continue;
    }
    const current = slot(ctx, now, ref.field, value, code);
    if (current === write.text) continue;
    const moved = ref.lastUpdated === null || now.lastUpdated !== ref.lastUpdated;
    if (moved && current !== (ref.seen[write.locale] ?? '')) {
      result.kept.push(`${id}.${ref.field} (${write.locale})`);
      continue;
    }
    changed.set(ref.field, { ...value, [code]: write.text });
    result.written++;
  }
  if (changed.size === 0) return result;
  await ctx.http.json(`${trim(ctx.settings.write_api_url)}/api/v1/write/${encodeURIComponent(ctx.settings.model)}/${encodeURIComponent(id)}`, {
    what: `Writing the translations of Builder entry ${id} of '${ctx.settings.model}'`,
    method: 'PATCH',
    headers: { ...auth(ctx), 'content-type': 'application/json' },
    body: JSON.stringify({ data: Object.fromEntries(changed) }),
  });
  return result;
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = await planLocales(ctx);
  const byEntry = new Map<string, { write: StringWrite; ref: BuilderRef }[]>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    if (!plan.targets.has(one.locale)) {
      absent.add(one.locale);
      continue;
    }
    byEntry.set(ref.id, [...(byEntry.get(ref.id) ?? []), { write: one, ref }]);
  }
  let written = 0;
  const kept: string[] = [];
  const stale: string[] = [];
  const gone: string[] = [];
  for (const [id, writes] of byEntry) {
    const result = await writeEntry(ctx, plan, id, writes);
    written += result.written;
    kept.push(...result.kept);
    stale.push(...result.stale);
    if (result.gone) gone.push(id);
  }
  const notes: string[] = [];
  if (kept.length) notes.push(`Left ${kept.length} translation(s) a person changed in Builder since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (stale.length) notes.push(`Not written, their Default text changed since the listing (the next sync translates it): ${[...new Set(stale)].slice(0, 10).join(', ')}.`);
  if (gone.length) notes.push(`Builder entr${gone.length === 1 ? 'y' : 'ies'} ${gone.slice(0, 10).join(', ')} of '${ctx.settings.model}' no longer exist${gone.length === 1 ? 's' : ''}; nothing was written there.`);
  if (absent.size) notes.push(`Not written: the Builder space has no locale for ${[...absent].join(', ')}.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/**
 * Builder does not sign webhooks; the model's webhook carries the secret as a custom header, X-Parlance-Webhook-Secret.
 * A notification about another model is verified but starts no sync.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: BuilderSettings): WebhookVerdict {
  const given = request.headers.get('x-parlance-webhook-secret');
  if (!given) return { verified: false, sync: false, reason: "No X-Parlance-Webhook-Secret header on Builder's webhook; add it as a custom header of the model's webhook." };
  if (!sameSecret(given, webhookSecret)) return { verified: false, sync: false, reason: "The Builder webhook's X-Parlance-Webhook-Secret does not match the connection's webhook secret." };
  let modelName: unknown;
  try {
    modelName = (JSON.parse(new TextDecoder().decode(request.body)) as { modelName?: unknown }).modelName;
  } catch {
    return { verified: true, sync: true };
  }
  if (typeof modelName === 'string' && modelName !== settings.model) return { verified: true, sync: false, reason: `The Builder webhook is about model '${modelName}', not '${settings.model}'.` };
  return { verified: true, sync: true };
}

export const builder: Connector<BuilderSettings, BuilderSecrets> = {
  id: 'builder',
  name: 'Builder.io',
  category: 'content',
  direction: 'two_way',
  summary: "A Builder.io model's entries: the localized text fields of their data are translated and written back into the space's locale slots.",
  settings: BuilderSettings,
  secrets: BuilderSecrets,
  webhooks: "A Builder model (or global) webhook with the custom header X-Parlance-Webhook-Secret carrying the webhook secret, compared in constant time; Builder does not sign webhooks.",
  list,
  write,
  verifyWebhook,
};
