/**
 * App Store Connect as a two-way content connector: an app's store listing text, through the App Store Connect API
 * (`https://api.appstoreconnect.apple.com/v1`, JSON:API documents), authenticated with a short-lived ES256 JWT made
 * from an API key (issuer id, key id, `.p8` private key).
 *
 * Two places, one unit each: `app-info` holds the app info localizations' `name` (30 characters) and `subtitle` (30),
 * from `/v1/apps/{id}/appInfos` → `/v1/appInfos/{id}/appInfoLocalizations`; `app-store-version` holds the platform's
 * App Store version localizations' `description` (4000), `keywords` (100), `promotionalText` (170) and `whatsNew`
 * (4000), from `/v1/apps/{id}/appStoreVersions` → `/v1/appStoreVersions/{id}/appStoreVersionLocalizations`. Each field
 * is one string keyed by its attribute name, so keys stay put from one version to the next. The source is the app's
 * primary locale; Apple's limits become `maxLength`.
 *
 * Apple lets a person edit these texts only on an app info and a version that are being prepared (or were rejected).
 * The connector reads the editable one when there is one; otherwise it lists the live one read-only (its place has no
 * target locales, so nothing is translated into it and nothing is written): Apple copies the live text into the next
 * version a person creates, and the first sync after that translates and writes there.
 *
 * Writing is a PATCH of the localization (`type`, `id`, the changed `attributes`) after reading it again: a field a
 * person changed in App Store Connect since the listing is left as it is. A locale the app lacks is created (POST) only
 * when `add_locales` is set, since adding a locale publishes the app in that language with the next release and Apple
 * refuses a submission whose app info and version have different locales. Apple answers 409 for three things, told
 * apart by `errors[].code`: `STATE_ERROR` (the version went to review after the listing: that localization is skipped
 * with a note, the others are written, and the next editable version gets the texts), a duplicate locale (a person
 * added it meanwhile: the next sync lists it) and any other `ENTITY_ERROR.*` (a value Apple refuses: `config`).
 *
 * Webhooks: App Store Connect's webhooks (signed in `x-apple-signature`) report version, build and TestFlight state
 * changes, and no event for a metadata edit, so none is offered: syncs run on the schedule and on demand.
 *
 * References: https://developer.apple.com/documentation/appstoreconnectapi (app-info-localizations,
 * app-store-version-localizations, generating-tokens-for-api-requests, configuring-webhook-notifications), Apple's
 * OpenAPI document as mirrored in api-evangelist/ios (AppInfo `state`, AppStoreVersionState, AppInfoLocalization*
 * requests, ErrorResponse `{ errors: [{ status, code, title, detail }] }`, PagingInformation), and Apple's App Store
 * Connect Help on field lengths.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit, StringWrite, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson, type FailureWording } from '../connector-http.js';
import { sameLocale } from '../remote-locales.js';

/** Apple allows tokens of at most 20 minutes; 15 leaves room for clock skew. */
const TOKEN_SECONDS = 15 * 60;
const PAGE_SIZE = 200;
/** Localizations of one app info or version: Apple has about 40 locales, so more pages than this is a wrong answer. */
const MAX_PAGES = 5;
/** The largest answer read: a page of 200 localizations with 4000-character texts stays far below it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

const APP_INFO_FIELDS = { name: 30, subtitle: 30 } as const;
const VERSION_FIELDS = { description: 4000, keywords: 100, promotionalText: 170, whatsNew: 4000 } as const;
const FIELDS = ['name', 'subtitle', 'description', 'keywords', 'promotionalText', 'whatsNew'] as const;
type Field = (typeof FIELDS)[number];

/** The states in which Apple lets a person edit an app info's or a version's localized text. */
const EDITABLE_INFO = new Set(['PREPARE_FOR_SUBMISSION', 'DEVELOPER_REJECTED', 'REJECTED']);
const EDITABLE_VERSION = ['PREPARE_FOR_SUBMISSION', 'DEVELOPER_REJECTED', 'REJECTED', 'METADATA_REJECTED', 'INVALID_BINARY'];
/** The live states: `appVersionState` READY_FOR_DISTRIBUTION, and the deprecated `appStoreState` READY_FOR_SALE. */
const LIVE = new Set(['READY_FOR_DISTRIBUTION', 'READY_FOR_SALE']);

/**
 * The App Store's localizations (App Store Connect Help, "App Store localizations"), for creating a locale the app
 * lacks; where a language has several, the region taken for a bare project tag (`fr` → `fr-FR`).
 */
const APPLE_LOCALES = ['ar-SA', 'ca', 'cs', 'da', 'de-DE', 'el', 'en-AU', 'en-CA', 'en-GB', 'en-US', 'es-ES', 'es-MX', 'fi', 'fr-CA', 'fr-FR', 'he', 'hi', 'hr', 'hu', 'id', 'it', 'ja', 'ko', 'ms', 'nl-NL', 'no', 'pl', 'pt-BR', 'pt-PT', 'ro', 'ru', 'sk', 'sv', 'th', 'tr', 'uk', 'vi', 'zh-Hans', 'zh-Hant'];
const DEFAULT_REGION: Record<string, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', pt: 'pt-BR', zh: 'zh-Hans' };

const APPLE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const AppStoreConnectSettings = z
  .object({
    app_id: z
      .string()
      .regex(/^\d+$/, "Expected the app's Apple ID (digits, App Store Connect → App Information → Apple ID) in `app_id`.")
      .openapi({ description: "The app's Apple ID: App Store Connect → the app → App Information → General Information → Apple ID (digits)." }),
    platform: z.enum(['IOS', 'MAC_OS', 'TV_OS', 'VISION_OS']).default('IOS').openapi({ description: 'Whose App Store version is translated: `IOS` (default), `MAC_OS`, `TV_OS` or `VISION_OS`.' }),
    fields: z
      .array(z.enum(FIELDS))
      .min(1, 'Expected at least one field in `fields`.')
      .default([...FIELDS])
      .openapi({ description: 'The texts translated. Default all: `name`, `subtitle` (app info), `description`, `keywords`, `promotionalText`, `whatsNew` (the version).' }),
    locales: z
      .record(z.string(), z.string().regex(APPLE_CODE, "Expected App Store Connect locale codes such as 'de-DE' or 'zh-Hans' as the values of `locales`."))
      .default({})
      .openapi({ description: 'Parlance locale → App Store Connect locale where the match is not plain (`{"es-419": "es-MX", "no": "no"}`). Otherwise the same tag, or the only (or the usual) region of its language: `de` → `de-DE`, `fr` → `fr-FR`.' }),
    add_locales: z
      .boolean()
      .default(false)
      .openapi({ description: "Create the localizations the app lacks for the project's target locales. Default false: adding a locale lists the app in that language with the next release, so it is a person's decision." }),
    api_url: z.string().url().default('https://api.appstoreconnect.apple.com').openapi({ description: 'The App Store Connect API. Default `https://api.appstoreconnect.apple.com`.' }),
  })
  .strict();

/** The key must parse as the EC P-256 private key App Store Connect issues, else no token can be made. */
function readKey(pem: string): KeyObject | string {
  try {
    const key = createPrivateKey(pem.replaceAll('\\n', '\n'));
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return 'it is not an EC P-256 key';
    return key;
  } catch (error) {
    return (error as Error).message;
  }
}

const AppStoreConnectSecrets = z
  .object({
    // Apple's issuer ids are 8-4-4-4-12 hex groups without RFC 4122's version bits (its own example: 57246542-96fe-1a63-e053-0824d011072a).
    issuer_id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Expected the issuer id (a UUID, Users and Access → Integrations → App Store Connect API) in `issuer_id`.").openapi({ description: 'The issuer id shown above the team keys (Users and Access → Integrations → App Store Connect API).' }),
    key_id: z.string().regex(/^[A-Z0-9]{10}$/, "Expected the key's 10-character id (such as '2X9R4HXF34') in `key_id`.").openapi({ description: "The API key's id (10 characters), as in its file name `AuthKey_<key id>.p8`." }),
    private_key: z
      .string()
      .superRefine((pem, issue) => {
        const key = readKey(pem);
        if (typeof key === 'string') issue.addIssue({ code: 'custom', message: `\`private_key\` is not the .p8 key App Store Connect issued (${key}). Paste the whole file, from -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----.` });
      })
      .openapi({ description: 'The contents of the `.p8` file downloaded when the key was made (a PEM EC private key). Used to sign each request token; never sent.' }),
  })
  .strict();

export type AppStoreConnectSettings = z.infer<typeof AppStoreConnectSettings>;
export type AppStoreConnectSecrets = z.infer<typeof AppStoreConnectSecrets>;
type Ctx = ConnectorContext<AppStoreConnectSettings, AppStoreConnectSecrets>;

type Kind = 'appInfo' | 'version';
const KINDS = {
  appInfo: { unit: 'app-info', type: 'appInfoLocalizations', parentType: 'appInfos', relationship: 'appInfo', label: 'app info', fields: APP_INFO_FIELDS },
  version: { unit: 'app-store-version', type: 'appStoreVersionLocalizations', parentType: 'appStoreVersions', relationship: 'appStoreVersion', label: 'App Store version', fields: VERSION_FIELDS },
} as const;

interface Resource {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
}
interface Document<T> {
  data: T;
  links?: { next?: string };
}
/** What `write` needs: the place, its field, each locale's localization, and what each held when listed. */
type AscRef = { kind: Kind; parent: string; field: Field; localizations: Record<string, { id: string; code: string }>; seen: Record<string, string> };

const WORDING: FailureWording = {
  vendor: 'App Store Connect',
  credentials: "the connection's issuer_id, key_id and private_key (an App Store Connect API key with the App Manager or Admin role)",
  settings: "the connection's app_id and platform",
  read: appleMessage,
};

interface AppleError {
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string };
}

/** The errors of Apple's error document (`{ errors: [{ status, code, title, detail, source }] }`); none when it is not one. */
function appleErrors(text: string): AppleError[] {
  try {
    const body = JSON.parse(text) as { errors?: unknown };
    return Array.isArray(body.errors) ? body.errors.filter((e): e is AppleError => typeof e === 'object' && e !== null) : [];
  } catch {
    return [];
  }
}

/**
 * What a 409 to a localization write means. Apple answers 409 for three things: `STATE_ERROR` (the app info or
 * version left the states that allow edits, e.g. it went to review after the listing), a duplicate
 * (`ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE`: the locale exists already) and every other `ENTITY_ERROR.*` (a value
 * Apple refuses: too long, invalid). `field` is the attribute named by the error's `source.pointer` or its detail.
 */
function appleConflict(text: string): { kind: 'state' | 'duplicate' | 'refused'; said: string; field?: string } {
  const errors = appleErrors(text);
  const codes = errors.map((e) => e.code ?? '');
  const kind = codes.length > 0 && codes.every((c) => c.startsWith('STATE_ERROR')) ? 'state' : codes.some((c) => c.endsWith('.DUPLICATE')) ? 'duplicate' : 'refused';
  const first = errors.find((e) => !(e.code ?? '').startsWith('STATE_ERROR')) ?? errors[0];
  const field = first?.source?.pointer?.match(/^\/data\/attributes\/(\w+)/)?.[1] ?? first?.detail?.match(/attribute '(\w+)'/i)?.[1];
  return { kind, said: appleMessage(text), ...(field ? { field } : {}) };
}

/** Apple's words from its error document: the first error's code and detail. */
export function appleMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { errors?: { code?: string; title?: string; detail?: string }[] };
    const first = body.errors?.[0];
    if (first) return [first.code, first.detail ?? first.title].filter(Boolean).join(': ').slice(0, 300);
  } catch {
    // Not Apple's JSON (a proxy's page): its start.
  }
  return text.trim().replace(/\s+/g, ' ').slice(0, 200);
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** An App Store Connect API token: ES256 over `{ iss, iat, exp, aud }`, with the key id in the header. */
export function appStoreConnectToken(secrets: AppStoreConnectSecrets, now = Date.now()): string {
  const key = readKey(secrets.private_key);
  if (typeof key === 'string') throw new ConnectorError('auth', `\`private_key\` is not a usable App Store Connect key (${key}); PATCH the connection with the .p8 file's contents.`);
  const iat = Math.floor(now / 1000);
  const head = base64url(JSON.stringify({ alg: 'ES256', kid: secrets.key_id, typ: 'JWT' }));
  const claims = base64url(JSON.stringify({ iss: secrets.issuer_id, iat, exp: iat + TOKEN_SECONDS, aud: 'appstoreconnect-v1' }));
  // JWS wants the raw r||s pair, not node's default DER signature.
  const signature = sign('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' });
  return `${head}.${claims}.${base64url(signature)}`;
}

/** One token per sync and credentials, made again when it is near its end. */
const tokens = new WeakMap<AppStoreConnectSecrets, { token: string; until: number }>();
function authorization(ctx: Ctx): string {
  const held = tokens.get(ctx.secrets);
  if (held && held.until > Date.now()) return `Bearer ${held.token}`;
  const token = appStoreConnectToken(ctx.secrets);
  tokens.set(ctx.secrets, { token, until: Date.now() + (TOKEN_SECONDS - 120) * 1000 });
  return `Bearer ${token}`;
}

const api = (ctx: Ctx, path: string) => `${ctx.settings.api_url.replace(/\/+$/, '')}/v1${path}`;

/** A JSON:API request; its answer is read only up to MAX_BODY_BYTES. 404 gives null when `missing` allows it. */
async function call<T>(ctx: Ctx, url: string, what: string, init: { method?: string; body?: unknown; missing?: boolean } = {}): Promise<T | null> {
  const response = await ctx.http.request(url, {
    method: init.method ?? 'GET',
    headers: { authorization: authorization(ctx), accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  if (response.status === 404 && init.missing) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw await failure(response, what, WORDING);
  // Apple's answers stay far below the limit, so one above it comes from somewhere else.
  return (await readJson<T>(response, what, { maxBytes: MAX_BODY_BYTES, tooLarge: 'check that api_url is the App Store Connect API' })) ?? null;
}

/** Every page of a to-many list, following `links.next` up to MAX_PAGES. */
async function readAll(ctx: Ctx, url: string, what: string): Promise<Resource[]> {
  const all: Resource[] = [];
  let next: string | undefined = url;
  for (let page = 1; next; page++) {
    // Asking again gets the same endless answer: the server at api_url is not Apple's.
    if (page > MAX_PAGES) throw new ConnectorError('config', `${what}: more than ${MAX_PAGES} pages of ${PAGE_SIZE}; App Store Connect has far fewer locales, so the answer is not trusted. Check that \`api_url\` is the App Store Connect API (https://api.appstoreconnect.apple.com).`);
    const body: Document<Resource[]> | null = await call<Document<Resource[]>>(ctx, next, `${what} (page ${page})`);
    if (!Array.isArray(body?.data)) throw new ConnectorError('config', `${what}: the answer has no data list; is api_url the App Store Connect API?`);
    all.push(...body.data);
    next = body.links?.next;
    // Only Apple's own pages are followed: the token travels with each request.
    if (next && new URL(next).origin !== new URL(ctx.settings.api_url).origin) throw new ConnectorError('config', `${what}: the next page is on another host (${new URL(next).host}).`);
  }
  return all;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const language = (code: string) => code.split(/[-_]/)[0]!.toLowerCase();

/**
 * A project tag's App Store Connect code among `codes`: the `locales` map, else the same tag, else, for a bare
 * language tag, its language's only code or its usual region (`fr` → `fr-FR` when both `fr-FR` and `fr-CA` are there).
 */
export function appleCodeFor(tag: string, codes: readonly string[], map: Record<string, string>): string | undefined {
  const mapped = map[tag];
  if (mapped) return codes.find((code) => sameLocale(code, mapped));
  const exact = codes.find((code) => sameLocale(code, tag));
  if (exact || language(tag) !== tag.toLowerCase()) return exact;
  const same = codes.filter((code) => language(code) === tag.toLowerCase());
  return same.length === 1 ? same[0] : same.find((code) => code === DEFAULT_REGION[tag.toLowerCase()]);
}

interface Place {
  kind: Kind;
  parent: Resource;
  editable: boolean;
  state: string;
  localizations: Resource[];
}

const stateOf = (resource: Resource) => text(resource.attributes?.state) || text(resource.attributes?.appVersionState) || text(resource.attributes?.appStoreState);

/** The app info a person can edit now, else the live one. */
async function appInfoPlace(ctx: Ctx): Promise<Place | undefined> {
  const infos = await readAll(ctx, api(ctx, `/apps/${ctx.settings.app_id}/appInfos?limit=50`), `Listing the app infos of app ${ctx.settings.app_id}`);
  const editable = infos.find((info) => EDITABLE_INFO.has(stateOf(info)));
  const parent = editable ?? infos.find((info) => LIVE.has(stateOf(info))) ?? infos[0];
  if (!parent) return undefined;
  const localizations = await readAll(ctx, api(ctx, `/appInfos/${encodeURIComponent(parent.id)}/appInfoLocalizations?limit=${PAGE_SIZE}`), `Listing the localizations of app info ${parent.id}`);
  return { kind: 'appInfo', parent, editable: editable !== undefined, state: stateOf(parent), localizations };
}

/** The platform's version a person can edit now, else the live one. */
async function versionPlace(ctx: Ctx): Promise<Place | undefined> {
  const query = new URLSearchParams({ 'filter[platform]': ctx.settings.platform, 'filter[appVersionState]': [...EDITABLE_VERSION, 'READY_FOR_DISTRIBUTION'].join(','), limit: '50' });
  const versions = await readAll(ctx, api(ctx, `/apps/${ctx.settings.app_id}/appStoreVersions?${query}`), `Listing the ${ctx.settings.platform} App Store versions of app ${ctx.settings.app_id}`);
  const editable = versions.find((version) => EDITABLE_VERSION.includes(stateOf(version)));
  const parent = editable ?? versions.find((version) => LIVE.has(stateOf(version)));
  if (!parent) return undefined;
  const localizations = await readAll(ctx, api(ctx, `/appStoreVersions/${encodeURIComponent(parent.id)}/appStoreVersionLocalizations?limit=${PAGE_SIZE}`), `Listing the localizations of App Store version ${text(parent.attributes?.versionString) || parent.id}`);
  return { kind: 'version', parent, editable: editable !== undefined, state: stateOf(parent), localizations };
}

const NOTES: Partial<Record<Field, string>> = {
  keywords: 'A comma-separated list of search keywords, 100 characters in all: translate each term, keep the commas, no spaces after them, and no words already in the app name.',
  promotionalText: 'Shown above the description; Apple lets it change at any time, without a new version.',
  whatsNew: "The release notes of this version (What's New).",
  name: "The app's name on the App Store.",
  subtitle: 'A short summary shown below the name.',
};

function placeUnit(ctx: Ctx, place: Place, primary: string, notes: string[]): StringUnit {
  const { unit, label, fields } = KINDS[place.kind];
  const byCode = new Map(place.localizations.map((l) => [text(l.attributes?.locale), l]));
  const source = byCode.get(primary);
  const codes = [...byCode.keys()].filter((code) => code !== primary);
  const targets = new Map<string, { id: string; code: string }>();
  const lacking: string[] = [];
  for (const tag of ctx.targetLocales) {
    const code = appleCodeFor(tag, codes, ctx.settings.locales);
    if (code) targets.set(tag, { id: byCode.get(code)!.id, code });
    else lacking.push(tag);
  }
  const addable = ctx.settings.add_locales
    ? lacking.filter((tag) => {
        const code = appleCodeFor(tag, APPLE_LOCALES, ctx.settings.locales);
        return code !== undefined && !sameLocale(code, primary);
      })
    : [];
  const what = place.kind === 'version' ? `${label} ${text(place.parent.attributes?.versionString) || place.parent.id}` : `${label} ${place.parent.id}`;
  if (!source) notes.push(`The ${what} has no ${primary} localization (the app's primary locale): nothing to translate from.`);
  const strings: RemoteString[] = [];
  for (const field of ctx.settings.fields.filter((f): f is Field => f in fields)) {
    const value = text(source?.attributes?.[field]);
    if (!value.trim()) continue;
    const seen: Record<string, string> = {};
    for (const [tag, target] of targets) seen[tag] = text(byCode.get(target.code)?.attributes?.[field]);
    const ref: AscRef = { kind: place.kind, parent: place.parent.id, field, localizations: Object.fromEntries(targets), seen };
    strings.push({
      key: field,
      source: value,
      maxLength: (fields as Record<string, number>)[field]!,
      context: `App Store ${place.kind === 'version' ? 'version' : 'app information'} field ${field}`,
      ...(NOTES[field] ? { notes: NOTES[field] } : {}),
      ref,
      translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
    });
  }
  if (!place.editable) {
    notes.push(`The ${what} is ${place.state || 'not editable'}: Apple allows no edits to it, so it was read only; its texts are translated and written on the next version a person creates in App Store Connect.`);
  } else if (lacking.length > 0) {
    notes.push(ctx.settings.add_locales ? `The ${what} lacks ${lacking.join(', ')}: ${addable.length ? `${addable.join(', ')} will be added` : 'none maps to an App Store locale'}${addable.length < lacking.length ? `; set \`locales\` for ${lacking.filter((t) => !addable.includes(t)).join(', ')}` : ''}.` : `The ${what} lacks ${lacking.join(', ')}: not translated (set \`add_locales\` to create them, or \`locales\` to map them to an existing one).`);
  }
  return { kind: 'strings', path: unit, strings, locales: place.editable ? [...targets.keys(), ...addable] : [] };
}

async function list(ctx: Ctx): Promise<Listing> {
  const app = await call<Document<Resource>>(ctx, api(ctx, `/apps/${ctx.settings.app_id}?fields[apps]=name,bundleId,primaryLocale`), `Reading app ${ctx.settings.app_id}`, { missing: true });
  if (!app?.data) throw new ConnectorError('config', `App Store Connect has no app ${ctx.settings.app_id} this API key can see: check \`app_id\` (the app's Apple ID) and that the key's team owns the app.`);
  const primary = text(app.data.attributes?.primaryLocale);
  if (!appleCodeFor(ctx.sourceLocale, [primary], ctx.settings.locales)) {
    throw new ConnectorError('config', `The app's primary locale is '${primary}', which is not the project's source locale '${ctx.sourceLocale}': the listing would be translated from the wrong language. Change the app's primary language, or map it with \`locales\` ({"${ctx.sourceLocale}": "${primary}"}) if they are the same language.`);
  }
  const notes: string[] = [];
  const units: StringUnit[] = [];
  const wants = (fields: object) => ctx.settings.fields.some((f) => f in fields);
  for (const [kind, read] of [
    ['appInfo', appInfoPlace],
    ['version', versionPlace],
  ] as const) {
    if (!wants(KINDS[kind].fields)) continue;
    const place = await read(ctx);
    if (place) units.push(placeUnit(ctx, place, primary, notes));
    else notes.push(kind === 'version' ? `App ${ctx.settings.app_id} has no ${ctx.settings.platform} version in App Store Connect that is live or being prepared; check \`platform\`.` : `App ${ctx.settings.app_id} has no app info.`);
  }
  return { units, note: [`Read '${text(app.data.attributes?.name)}' (${text(app.data.attributes?.bundleId)}), primary locale ${primary}.`, ...notes].join(' ') };
}

function readRef(write: StringWrite): AscRef {
  const ref = write.ref as AscRef | undefined;
  if (!ref || typeof ref.parent !== 'string' || !(ref.kind in KINDS) || !FIELDS.includes(ref.field)) {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to App Store Connect: the string carries no App Store Connect reference; sync again so it is listed anew.`);
  }
  return ref;
}

interface Group {
  kind: Kind;
  parent: string;
  tag: string;
  target?: { id: string; code: string };
  writes: { write: StringWrite; ref: AscRef }[];
}

/** One localization's writes: read it again, PATCH the fields nobody changed since the listing. */
/** What writing one localization came to; `unwritten`: the writes left undone (kept or skipped), not to be recorded as written. */
interface LocalizationResult {
  written: number;
  kept: string[];
  gone?: string;
  unwritten: StringWrite[];
}

async function patchLocalization(ctx: Ctx, group: Group & { target: { id: string; code: string } }): Promise<LocalizationResult> {
  const { type, label } = KINDS[group.kind];
  const what = `the ${group.target.code} localization of ${label} ${group.parent}`;
  const now = await call<Document<Resource>>(ctx, api(ctx, `/${type}/${encodeURIComponent(group.target.id)}`), `Reading ${what}`, { missing: true });
  const all = group.writes.map((w) => w.write);
  if (!now?.data) return { written: 0, kept: [], gone: `${what} was deleted since the listing`, unwritten: all };
  const attributes: Record<string, string> = {};
  const kept: string[] = [];
  const unwritten: StringWrite[] = [];
  for (const { write, ref } of group.writes) {
    const current = text(now.data.attributes?.[ref.field]);
    if (current === write.text) continue;
    if (current !== (ref.seen[group.tag] ?? '')) {
      kept.push(`${ref.field} (${group.tag})`);
      unwritten.push(write);
      continue;
    }
    attributes[ref.field] = write.text;
  }
  const written = Object.keys(attributes).length;
  if (written === 0) return { written, kept, unwritten };
  const response = await ctx.http.request(api(ctx, `/${type}/${encodeURIComponent(group.target.id)}`), {
    method: 'PATCH',
    headers: { authorization: authorization(ctx), accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ data: { type, id: group.target.id, attributes } }),
  });
  if (response.status === 409) {
    const conflict = appleConflict(await response.text());
    // The version went to review (or out) after the listing: this localization is skipped, the others are written.
    if (conflict.kind === 'state') return { written: 0, kept, gone: `${what}: Apple no longer allows edits to it (${conflict.said}); the next editable ${label} gets these texts`, unwritten: all };
    throw refused(`Writing ${what}`, conflict);
  }
  if (!response.ok) throw await failure(response, `Writing ${what}`, WORDING);
  await response.body?.cancel();
  return { written, kept, unwritten };
}

/** A 409 for a value Apple refuses (too long, invalid): asking again gets the same answer. */
function refused(what: string, conflict: { said: string; field?: string }): ConnectorError {
  const field = conflict.field ? `the field \`${conflict.field}\`` : 'a field';
  return new ConnectorError('config', `${what}: App Store Connect refused ${field} (HTTP 409: ${conflict.said}). Correct that translation in Parlance${conflict.field === 'locale' ? ", or the connection's `locales` map" : ''}, then sync again.`);
}

/** A locale the app lacks: one POST with the translated fields (an app info localization needs its `name`). */
async function createLocalization(ctx: Ctx, group: Group): Promise<LocalizationResult> {
  const { type, label, parentType, relationship } = KINDS[group.kind];
  const code = appleCodeFor(group.tag, APPLE_LOCALES, ctx.settings.locales);
  const all = group.writes.map((w) => w.write);
  if (!code) return { written: 0, kept: [], gone: `${group.tag} maps to no App Store locale; set \`locales\``, unwritten: all };
  const attributes: Record<string, string> = Object.fromEntries(group.writes.map(({ write, ref }) => [ref.field, write.text]));
  if (group.kind === 'appInfo' && !attributes.name) return { written: 0, kept: [], gone: `a new ${code} app info localization needs its name, which was not translated`, unwritten: all };
  const response = await ctx.http.request(api(ctx, `/${type}`), {
    method: 'POST',
    headers: { authorization: authorization(ctx), 'content-type': 'application/json' },
    body: JSON.stringify({ data: { type, attributes: { locale: code, ...attributes }, relationships: { [relationship]: { data: { type: parentType, id: group.parent } } } } }),
  });
  if (response.status === 409) {
    const conflict = appleConflict(await response.text());
    // A person added the locale since the listing; the next sync lists it and writes only what they left empty.
    if (conflict.kind === 'duplicate') return { written: 0, kept: [], gone: `${label} ${group.parent} (${code}): a person added this locale meanwhile (${conflict.said}); the next sync lists it anew`, unwritten: all };
    if (conflict.kind === 'state') return { written: 0, kept: [], gone: `${label} ${group.parent} (${code}): Apple no longer allows edits to it (${conflict.said}); the next editable ${label} gets this locale`, unwritten: all };
    throw refused(`Adding the ${code} localization to ${label} ${group.parent}`, conflict);
  }
  if (!response.ok) throw await failure(response, `Adding the ${code} localization to ${label} ${group.parent}`, WORDING);
  await response.body?.cancel();
  return { written: Object.keys(attributes).length, kept: [], unwritten: [] };
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  const groups = new Map<string, Group>();
  for (const one of writeBack.strings) {
    const ref = readRef(one);
    const id = `${ref.kind}/${ref.parent}/${one.locale}`;
    const group = groups.get(id) ?? { kind: ref.kind, parent: ref.parent, tag: one.locale, ...(ref.localizations[one.locale] ? { target: ref.localizations[one.locale] } : {}), writes: [] };
    group.writes.push({ write: one, ref });
    groups.set(id, group);
  }
  let written = 0;
  const kept: string[] = [];
  const skipped: string[] = [];
  const unwritten: StringWrite[] = [];
  for (const group of groups.values()) {
    if (!group.target && !ctx.settings.add_locales) {
      skipped.push(`${group.tag} is not a locale of the app (set \`add_locales\` to add it)`);
      unwritten.push(...group.writes.map((w) => w.write));
      continue;
    }
    const result = group.target ? await patchLocalization(ctx, { ...group, target: group.target }) : await createLocalization(ctx, group);
    written += result.written;
    kept.push(...result.kept);
    unwritten.push(...result.unwritten);
    if (result.gone) skipped.push(result.gone);
  }
  const notes: string[] = [];
  if (written) notes.push(`Wrote ${written} field(s) into App Store Connect; nothing was submitted for review.`);
  if (kept.length) notes.push(`Left ${kept.length} field(s) a person changed in App Store Connect since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (skipped.length) notes.push(`Not written: ${[...new Set(skipped)].slice(0, 10).join('; ')}.`);
  return { written, ...(unwritten.length ? { skipped: unwritten.map((w) => ({ path: w.path, key: w.key, locale: w.locale })) } : {}), ...(notes.length ? { note: notes.join(' ') } : {}) };
}

export const appStoreConnect: Connector<AppStoreConnectSettings, AppStoreConnectSecrets> = {
  id: 'app_store_connect',
  name: 'App Store Connect',
  category: 'content',
  direction: 'two_way',
  summary: "An app's App Store listing (name, subtitle, description, keywords, promotional text, What's New) through the App Store Connect API: the primary locale is the source, translations are written into the app info and the version being prepared, never submitted.",
  settings: AppStoreConnectSettings,
  secrets: AppStoreConnectSecrets,
  list,
  write,
};
