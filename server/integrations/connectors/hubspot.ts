/**
 * HubSpot CMS as a two-way content connector, through the CMS v3 REST API: website pages (`/cms/v3/pages/site-pages`)
 * and blog posts (`/cms/v3/blogs/posts`) with HubSpot's multi-language groups. A primary object (no
 * `translatedFromId`) in the project's source language is the source; its language variations (`translatedFromId` =
 * the primary's id, `language` = a HubSpot code such as `de` or `fr-ca`) hold the translations. Each chosen field of
 * each primary is one string (key `<id>.<field>`): `name`, `htmlTitle`, `metaDescription` and, for posts, `postBody`.
 *
 * Translations go into the variation's draft only (`PATCH /{id}/draft`), never published: a person reviews and
 * publishes in HubSpot. A language without a variation yet is created with `POST
 * …/multi-language/create-language-variation` (`{ id, language }`). The listing reads each variation's draft, so what
 * Parlance wrote is what it sees next time; before a write the draft is read again, and a field a person changed since
 * the listing is left as it is. A variation's field that still holds the primary's text (HubSpot copies the primary
 * into a new variation) counts as untranslated.
 *
 * Limits, said rather than faked: page widget content (`widgets`, `widgetContainers`, `layoutSections`) is not
 * synced, only the page's own text fields; landing pages are not listed; HubSpot states no field lengths, so no
 * maximum is given. Webhooks: HubSpot signs with `X-HubSpot-Signature-v3` (base64 HMAC-SHA256 of method + URI + body +
 * timestamp, keyed with the app's client secret) and `X-HubSpot-Request-Timestamp` (milliseconds; older than 5 minutes
 * is refused).
 *
 * References: https://developers.hubspot.com/docs/api-reference/cms-pages-v3 (site pages, `…/draft`,
 * `multi-language/create-language-variation` with `{ id, language, primaryLanguage }`), https://developers.hubspot.com/docs/methods/pages/get_pages_page_id
 * (listing, filters, `archived`), the blog posts v3 reference (same shapes under `/cms/v3/blogs/posts`),
 * https://developers.hubspot.com/docs/api/usage-details (429 `RATE_LIMIT`, `X-HubSpot-RateLimit-*` headers),
 * https://developers.hubspot.com/changelog/introducing-version-3-of-webhook-signatures (signature v3), and the
 * HubSpot/hubspot-api-ruby generated models (Page, ForwardPaging `paging.next.after`, ContentLanguageVariation).
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, RemoteString, StringUnit, StringWrite, WebhookRequest, WebhookVerdict, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure } from '../connector-http.js';
import { sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const PAGE_SIZE = 100;
/** At most this many objects of one kind are read in a sync (bounded reads). */
const MAX_OBJECTS = 5000;
/** HubSpot's own advice: refuse a signed request older than five minutes. */
const WEBHOOK_MAX_AGE_MS = 5 * 60_000;

const KINDS = {
  site_pages: { path: '/cms/v3/pages/site-pages', label: 'website page', unit: 'site-pages' },
  blog_posts: { path: '/cms/v3/blogs/posts', label: 'blog post', unit: 'blog-posts' },
} as const;
type Kind = keyof typeof KINDS;
const PAGE_FIELDS = ['name', 'htmlTitle', 'metaDescription'] as const;
const POST_FIELDS = ['name', 'htmlTitle', 'metaDescription', 'postBody'] as const;
const HUBSPOT_CODE = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;

const HubSpotSettings = z
  .object({
    api_url: z.string().url().default('https://api.hubapi.com').openapi({ description: "HubSpot's API. Default `https://api.hubapi.com`." }),
    content: z
      .array(z.enum(['site_pages', 'blog_posts']))
      .min(1, 'Expected at least one of site_pages, blog_posts in `content`.')
      .default(['site_pages', 'blog_posts'])
      .openapi({ description: 'What is translated: `site_pages` (website pages) and/or `blog_posts`. Default both.' }),
    page_fields: z
      .array(z.enum(PAGE_FIELDS))
      .default([...PAGE_FIELDS])
      .openapi({ description: 'The website page fields translated. Default `name`, `htmlTitle`, `metaDescription`. Widget content is not synced.' }),
    post_fields: z
      .array(z.enum(POST_FIELDS))
      .default([...POST_FIELDS])
      .openapi({ description: 'The blog post fields translated. Default `name`, `htmlTitle`, `metaDescription`, `postBody`.' }),
    languages: z
      .array(z.string().regex(HUBSPOT_CODE, "Expected HubSpot language codes such as 'de' or 'fr-ca' in `languages`."))
      .optional()
      .openapi({ description: "The HubSpot languages to translate into (`[\"de\", \"fr-ca\"]`), after the `locales` mapping. Default: every target locale of the project; a variation is created where there is none." }),
    locales: z
      .record(z.string(), z.string().regex(HUBSPOT_CODE, "Expected HubSpot language codes such as 'fr-ca' as the values of `locales`."))
      .default({})
      .openapi({ description: 'Parlance locale → HubSpot language code where they differ (`{"fr-CA": "fr-ca"}`); others are the tag in lower case.' }),
    portal_id: z
      .union([z.string().regex(/^\d+$/, 'Expected the HubSpot account (portal) id, digits only, in `portal_id`.'), z.number().int().positive()])
      .optional()
      .openapi({ description: "The HubSpot account id; webhook notifications for another account start no sync." }),
    webhook_url: z
      .string()
      .url()
      .optional()
      .openapi({ description: "The target URL as set in the HubSpot app's webhook settings, when a proxy changes the host Parlance sees; the signature covers it. Default: rebuilt from the request." }),
  })
  .strict();

const HubSpotSecrets = z
  .object({
    access_token: z.string().min(1, 'Expected the private app access token in `access_token`.').openapi({ description: 'A HubSpot private app access token (Settings → Integrations → Private apps) with the `content` scope.' }),
  })
  .strict();

export type HubSpotSettings = z.infer<typeof HubSpotSettings>;
export type HubSpotSecrets = z.infer<typeof HubSpotSecrets>;
type Ctx = ConnectorContext<HubSpotSettings, HubSpotSecrets>;

interface HubSpotObject {
  id: string;
  language?: string | null;
  translatedFromId?: string | number | null;
  slug?: string | null;
  url?: string | null;
  [field: string]: unknown;
}
interface HubSpotPage {
  results: HubSpotObject[];
  total?: number;
  paging?: { next?: { after?: string } };
}
/** What `write` needs: the object kind and primary, the field, the variations by locale, what each held when listed. */
type HubSpotRef = { kind: Kind; id: string; field: string; source: string; variants: Record<string, string>; seen: Record<string, string> };

const base = (ctx: Ctx) => ctx.settings.api_url.replace(/\/+$/, '');
const auth = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.secrets.access_token}` });
const fieldsOf = (ctx: Ctx, kind: Kind): readonly string[] => (kind === 'site_pages' ? ctx.settings.page_fields : ctx.settings.post_fields);

/** A Parlance tag's HubSpot code: the `locales` map, else the tag in lower case (HubSpot's codes are `de`, `fr-ca`, `zh-tw`). */
const hubspotCode = (ctx: Ctx, tag: string) => (ctx.settings.locales[tag] ?? tag).replaceAll('_', '-').toLowerCase();

interface LocalePlan {
  /** Parlance tag → HubSpot code, for the targets this connection translates into. */
  targets: Map<string, string>;
  skipped: string[];
}

function planLocales(ctx: Ctx): LocalePlan {
  const targets = new Map<string, string>();
  const skipped: string[] = [];
  const source = hubspotCode(ctx, ctx.sourceLocale);
  for (const tag of ctx.targetLocales) {
    const code = hubspotCode(ctx, tag);
    if (code === source) continue;
    if (ctx.settings.languages && !ctx.settings.languages.some((l) => sameLocale(l, code))) skipped.push(tag);
    else targets.set(tag, code);
  }
  return { targets, skipped };
}

async function readJson<T>(ctx: Ctx, url: string, what: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await ctx.http.request(url, {
    method: init.method ?? 'GET',
    headers: { ...auth(ctx), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  if (!response.ok) throw await failure(response, what);
  return (await response.json()) as T;
}

async function readAll(ctx: Ctx, kind: Kind): Promise<{ objects: HubSpotObject[]; pages: number; truncated: boolean }> {
  const { path, label } = KINDS[kind];
  const objects: HubSpotObject[] = [];
  let after: string | undefined;
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), archived: 'false' });
    if (after) query.set('after', after);
    const body = await readJson<HubSpotPage>(ctx, `${base(ctx)}${path}?${query}`, `Listing HubSpot ${label}s (page ${page})`);
    if (!Array.isArray(body?.results)) throw new ConnectorError('config', `Listing HubSpot ${label}s: the answer has no results list; is api_url HubSpot's API?`);
    objects.push(...body.results);
    after = body.paging?.next?.after;
    if (!after) return { objects, pages: page, truncated: false };
    if (objects.length >= MAX_OBJECTS) return { objects, pages: page, truncated: true };
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const groupOf = (object: HubSpotObject) => (object.translatedFromId === null || object.translatedFromId === undefined || object.translatedFromId === '' ? undefined : String(object.translatedFromId));

async function readDraft(ctx: Ctx, kind: Kind, id: string): Promise<HubSpotObject | null> {
  const { path, label } = KINDS[kind];
  const response = await ctx.http.request(`${base(ctx)}${path}/${encodeURIComponent(id)}/draft`, { headers: auth(ctx) });
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, `Reading the draft of HubSpot ${label} ${id}`);
  return (await response.json()) as HubSpotObject;
}

async function listKind(ctx: Ctx, kind: Kind, plan: LocalePlan): Promise<{ unit: StringUnit; notes: string[] }> {
  const { label, unit: unitPath } = KINDS[kind];
  const { objects, pages, truncated } = await readAll(ctx, kind);
  const sourceCode = hubspotCode(ctx, ctx.sourceLocale);
  const primaries = objects.filter((o) => !groupOf(o) && sameLocale(text(o.language), sourceCode));
  const otherPrimaries = objects.filter((o) => !groupOf(o) && !sameLocale(text(o.language), sourceCode)).length;
  const variationsOf = new Map<string, HubSpotObject[]>();
  for (const object of objects) {
    const group = groupOf(object);
    if (group) variationsOf.set(group, [...(variationsOf.get(group) ?? []), object]);
  }
  const strings: RemoteString[] = [];
  for (const primary of primaries) {
    const variants: Record<string, string> = {};
    const drafts = new Map<string, HubSpotObject>();
    for (const [tag, code] of plan.targets) {
      const variation = (variationsOf.get(String(primary.id)) ?? []).find((v) => sameLocale(text(v.language), code));
      if (!variation) continue;
      variants[tag] = String(variation.id);
      const draft = await readDraft(ctx, kind, String(variation.id));
      if (draft) drafts.set(tag, draft);
    }
    for (const field of fieldsOf(ctx, kind)) {
      const value = primary[field];
      if (value !== undefined && value !== null && typeof value !== 'string') throw new ConnectorError('config', `HubSpot ${label} ${primary.id}: field '${field}' is not text (it holds ${typeof value}).`);
      const source = text(value);
      if (!source.trim()) continue;
      const seen: Record<string, string> = {};
      for (const tag of plan.targets.keys()) {
        const held = text(drafts.get(tag)?.[field]);
        // A variation still holding the primary's words (HubSpot copies them into a new variation) is untranslated.
        seen[tag] = held === source ? '' : held;
      }
      const ref: HubSpotRef = { kind, id: String(primary.id), field, source, variants, seen };
      const where = text(primary.slug) || text(primary.name) || String(primary.id);
      strings.push({
        key: `${primary.id}.${field}`,
        source,
        context: `HubSpot ${label} '${where}', field ${field}`,
        ...(text(primary.url) ? { notes: `URL: ${text(primary.url)}` } : {}),
        ref,
        translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
      });
    }
  }
  const notes = [`Read ${objects.length} HubSpot ${label}(s) in ${pages} page(s): ${primaries.length} in ${sourceCode}.`];
  if (truncated) notes.push(`Stopped after ${objects.length} ${label}s (the limit of one sync).`);
  if (otherPrimaries) notes.push(`${otherPrimaries} primary ${label}(s) are not in ${sourceCode} (or have no language set) and were left out.`);
  return { unit: { kind: 'strings', path: unitPath, strings, locales: [...plan.targets.keys()] }, notes };
}

async function list(ctx: Ctx) {
  const plan = planLocales(ctx);
  const units: StringUnit[] = [];
  const notes: string[] = [];
  for (const kind of ctx.settings.content) {
    const listed = await listKind(ctx, kind, plan);
    units.push(listed.unit);
    notes.push(...listed.notes);
  }
  if (plan.skipped.length) notes.push(`Skipped target locale(s) ${plan.skipped.join(', ')}: not in the connection's \`languages\`.`);
  return { units, note: notes.join(' ') };
}

function readRef(write: StringWrite): HubSpotRef {
  const ref = write.ref as HubSpotRef | undefined;
  if (!ref || typeof ref.id !== 'string' || typeof ref.field !== 'string' || !(ref.kind in KINDS)) {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to HubSpot: the string carries no HubSpot reference; sync again so it is listed anew.`);
  }
  return ref;
}

/** Creates the language variation of `primary`; a primary deleted since the listing gives null. */
async function createVariation(ctx: Ctx, kind: Kind, primary: string, code: string): Promise<HubSpotObject | null> {
  const { path, label } = KINDS[kind];
  const response = await ctx.http.request(`${base(ctx)}${path}/multi-language/create-language-variation`, {
    method: 'POST',
    headers: { ...auth(ctx), 'content-type': 'application/json' },
    body: JSON.stringify({ id: primary, language: code }),
  });
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, `Creating the '${code}' variation of HubSpot ${label} ${primary}`);
  return (await response.json()) as HubSpotObject;
}

/** Writes one primary's translations in one locale: one draft PATCH with the changed fields, none when nothing changed. */
async function writeVariation(ctx: Ctx, kind: Kind, primary: string, tag: string, code: string, writes: { write: StringWrite; ref: HubSpotRef }[]): Promise<{ written: number; kept: string[]; gone?: string }> {
  const { path, label } = KINDS[kind];
  const known = writes[0]!.ref.variants[tag];
  let draft: HubSpotObject | null = null;
  let created = false;
  if (known) {
    draft = await readDraft(ctx, kind, known);
    if (!draft) return { written: 0, kept: [], gone: `${label} ${primary} (${tag}): its variation ${known} was deleted since the listing; the next sync creates it again` };
  } else {
    draft = await createVariation(ctx, kind, primary, code);
    if (!draft) return { written: 0, kept: [], gone: `${label} ${primary}: deleted since the listing` };
    created = true;
  }
  const patch: Record<string, string> = {};
  const kept: string[] = [];
  for (const { write, ref } of writes) {
    const current = text(draft[ref.field]);
    if (current === write.text) continue;
    const untouched = created || current === (ref.seen[tag] ?? '') || current === ref.source;
    if (!untouched) {
      kept.push(`${primary}.${ref.field} (${tag})`);
      continue;
    }
    patch[ref.field] = write.text;
  }
  const written = Object.keys(patch).length;
  if (written === 0) return { written, kept };
  await readJson(ctx, `${base(ctx)}${path}/${encodeURIComponent(String(draft.id))}/draft`, `Writing the '${code}' draft of HubSpot ${label} ${primary}`, { method: 'PATCH', body: patch });
  return { written, kept };
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const plan = planLocales(ctx);
  const groups = new Map<string, { kind: Kind; primary: string; tag: string; code: string; writes: { write: StringWrite; ref: HubSpotRef }[] }>();
  const absent = new Set<string>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    const code = plan.targets.get(one.locale);
    if (!code) {
      absent.add(one.locale);
      continue;
    }
    const id = `${ref.kind}/${ref.id}/${one.locale}`;
    const group = groups.get(id) ?? { kind: ref.kind, primary: ref.id, tag: one.locale, code, writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  let written = 0;
  const kept: string[] = [];
  const gone: string[] = [];
  for (const group of groups.values()) {
    const result = await writeVariation(ctx, group.kind, group.primary, group.tag, group.code, group.writes);
    written += result.written;
    kept.push(...result.kept);
    if (result.gone) gone.push(result.gone);
  }
  const notes: string[] = [];
  if (written) notes.push(`Wrote ${written} field(s) into HubSpot drafts; nothing was published.`);
  if (kept.length) notes.push(`Left ${kept.length} field(s) a person changed in HubSpot since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (gone.length) notes.push(`Not written: ${[...new Set(gone)].slice(0, 10).join('; ')}.`);
  if (absent.size) notes.push(`Not written: ${[...absent].join(', ')} is not among the connection's HubSpot languages.`);
  return { written, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/**
 * The URI HubSpot signs: the request's full URL with some percent-escapes decoded, as HubSpot's validation guide lists
 * them (`%3A`, `%2F`, `%3F`, `%40`, `%21`, `%24`, `%27`, `%28`, `%29`, `%2A`, `%2C`, `%3B`).
 */
export function hubspotSignedUri(uri: string): string {
  return uri.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (escape) => decodeURIComponent(escape));
}

/** `X-HubSpot-Signature-v3`: base64 HMAC-SHA256, keyed with the app's client secret, of method + URI + body + timestamp. */
export function hubspotSignature(secret: string, request: { method: string; uri: string; body: string; timestamp: string }): string {
  return createHmac('sha256', secret).update(`${request.method}${hubspotSignedUri(request.uri)}${request.body}${request.timestamp}`, 'utf8').digest('base64');
}

/** The URLs the notification may have been sent to: the `webhook_url` setting, else the request's own host over https and http. */
function candidateUris(request: WebhookRequest, settings: HubSpotSettings): string[] {
  const path = request.path ?? '/';
  if (settings.webhook_url) {
    const configured = new URL(settings.webhook_url);
    return [`${configured.origin}${path}`, settings.webhook_url];
  }
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  if (!host) return [];
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  const protocols = forwarded ? [forwarded] : ['https', 'http'];
  return protocols.map((protocol) => `${protocol}://${host}${path}`);
}

/**
 * A HubSpot notification is genuine when X-HubSpot-Signature-v3 matches the request signed with the connection's
 * webhook secret (the app's client secret) and X-HubSpot-Request-Timestamp is under five minutes old. Verified
 * notifications start a sync, unless `portal_id` is set and every event names another account.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, settings: HubSpotSettings, now = Date.now()): WebhookVerdict {
  const signature = request.headers.get('x-hubspot-signature-v3')?.trim();
  if (!signature) return { verified: false, sync: false, reason: 'No X-HubSpot-Signature-v3 header: HubSpot signs app webhooks with it.' };
  const stamp = request.headers.get('x-hubspot-request-timestamp')?.trim() ?? '';
  const timestamp = Number(stamp);
  if (!stamp || !Number.isFinite(timestamp)) return { verified: false, sync: false, reason: 'X-HubSpot-Signature-v3 without a valid X-HubSpot-Request-Timestamp.' };
  if (Math.abs(now - timestamp) > WEBHOOK_MAX_AGE_MS) return { verified: false, sync: false, reason: `The signed notification is ${Math.round((now - timestamp) / 1000)} s old; HubSpot notifications over 5 minutes old are refused.` };
  const body = new TextDecoder().decode(request.body);
  const method = request.method ?? 'POST';
  const matches = candidateUris(request, settings).some((uri) => sameSecret(signature, hubspotSignature(webhookSecret, { method, uri, body, timestamp: stamp })));
  if (!matches) return { verified: false, sync: false, reason: "X-HubSpot-Signature-v3 does not match the request signed with the connection's webhook secret (the HubSpot app's client secret); if a proxy changes the host, set `webhook_url`." };
  if (settings.portal_id !== undefined) {
    try {
      const events = JSON.parse(body) as unknown;
      const portals = (Array.isArray(events) ? events : [events]).map((e) => (typeof e === 'object' && e !== null ? (e as { portalId?: unknown }).portalId : undefined)).filter((p) => p !== undefined);
      if (portals.length > 0 && !portals.some((p) => String(p) === String(settings.portal_id))) return { verified: true, sync: false, reason: `The notification is about HubSpot account ${String(portals[0])}, not ${String(settings.portal_id)}.` };
    } catch {
      // A signed body that is not JSON still came from HubSpot: sync, and let the listing tell.
    }
  }
  return { verified: true, sync: true };
}

export const hubspot: Connector<HubSpotSettings, HubSpotSecrets> = {
  id: 'hubspot',
  name: 'HubSpot CMS',
  category: 'content',
  direction: 'two_way',
  summary: "HubSpot website pages and blog posts (name, HTML title, meta description, post body) through the CMS v3 API: the source-language primaries are translated into their multi-language variations' drafts, created where missing, never published.",
  settings: HubSpotSettings,
  secrets: HubSpotSecrets,
  webhooks: "HubSpot's X-HubSpot-Signature-v3 (base64 HMAC-SHA256 of method, URI, body and X-HubSpot-Request-Timestamp with the app's client secret, given as the connection's webhook_secret), refused when over 5 minutes old",
  list,
  write,
  verifyWebhook,
};
