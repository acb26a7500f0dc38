/**
 * A local App Store Connect API holding one app: its app infos (a live one and one being prepared) with their
 * `appInfoLocalizations`, and its App Store versions (1.0 live, 1.1 being prepared) with their
 * `appStoreVersionLocalizations`. Every request must carry an ES256 JWT that the mock verifies with the public key of
 * a key pair made here (`kid`, `iss`, `aud: appstoreconnect-v1`, `exp` in the future and at most 20 minutes after
 * `iat`); a bad one gets Apple's 401 NOT_AUTHORIZED. The kit's SEED strings are the en-US texts of version 1.1:
 * welcome = description, cart = promotionalText, checkout = whatsNew, farewell = keywords.
 *
 * Shapes from https://developer.apple.com/documentation/appstoreconnectapi (app-info-localizations,
 * app-store-version-localizations: GET lists, GET/PATCH/POST single resources, `PATCH { data: { type, id, attributes } }`,
 * `POST { data: { type, attributes: { locale, … }, relationships: { appInfo | appStoreVersion: { data } } } }`;
 * generating-tokens-for-api-requests: the JWT's header and claims; "Modify an App Info Localization" lists 200, 400,
 * 401, 403, 404, 409, 422 answers), Apple's OpenAPI document as mirrored in api-evangelist/ios (AppInfo `state`,
 * AppStoreVersion `appVersionState` and the deprecated `appStoreState`, `filter[platform]`/`filter[appVersionState]`,
 * list documents `{ data, links: { self, next }, meta: { paging: { total, limit } } }`, ErrorResponse
 * `{ errors: [{ id, status, code, title, detail }] }`).
 *
 * The 409s of a localization write, from public reports rather than Apple's reference: an edit of a version that went
 * to review is `STATE_ERROR`, "The request cannot be fulfilled because of the state of another resource." / "Attribute
 * 'description' cannot be edited at this time" (fastlane/fastlane#16626, #17933); a locale added twice is
 * `ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE` at `/data/attributes/locale`, "Entity with locale: 'ja' already exists. Try
 * updating." (rorkai/App-Store-Connect-CLI#2583 and #2712, quoting Apple developer forum threads 677931 and 776315; not
 * verified live there either).
 *
 * Guessed: the `cursor` in `links.next` (opaque here: an offset in base64); the 409 code and wording for a text over
 * its limit; that a POST to a version in review is the same STATE_ERROR (with `locale` as its attribute); the
 * `source.pointer` of the STATE_ERROR and TOO_LONG errors (that promotional text stays editable is documented); the
 * 401 detail text (as Apple's answers read in public bug reports); the 429 body and the
 * `Retry-After` header (Apple documents `X-Rate-Limit: user-hour-lim:3600;user-hour-rem:0;` and no Retry-After).
 */
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson } from './loopback.js';
import { serveRestCms, type RestCmsCall, type RestCmsMock } from './rest-cms-mock.js';

export const ASC_APP_ID = '1234567890';
const ISSUER = '57246542-96fe-1a63-e053-0824d011072a';
const KEY_ID = '2X9R4HXF34';
const LIMITS: Record<string, number> = { name: 30, subtitle: 30, description: 4000, keywords: 100, promotionalText: 170, whatsNew: 4000 };
const INFO_FIELDS = ['name', 'subtitle', 'privacyPolicyUrl', 'privacyChoicesUrl', 'privacyPolicyText'];
const VERSION_FIELDS = ['description', 'keywords', 'marketingUrl', 'promotionalText', 'supportUrl', 'whatsNew'];
/** The seed strings' fields in the version being prepared. */
export const SEED_FIELDS: Record<string, string> = { welcome: 'description', cart: 'promotionalText', checkout: 'whatsNew', farewell: 'keywords' };
const EDITABLE = new Set(['PREPARE_FOR_SUBMISSION', 'DEVELOPER_REJECTED', 'REJECTED', 'METADATA_REJECTED', 'INVALID_BINARY']);

type Type = 'appInfoLocalizations' | 'appStoreVersionLocalizations';
interface Localization {
  id: string;
  type: Type;
  parent: string;
  locale: string;
  attributes: Record<string, string | null>;
}
interface Parent {
  id: string;
  type: 'appInfos' | 'appStoreVersions';
  /** AppInfo `state`, or AppStoreVersion `appVersionState`. */
  state: string;
  versionString?: string;
  platform?: string;
}

export interface AscSecrets {
  issuer_id: string;
  key_id: string;
  private_key: string;
}

export interface AppStoreConnectMock extends RestCmsMock {
  secrets: AscSecrets;
  /** Credentials of another key with the same ids: the signature does not verify. */
  wrongSecrets: AscSecrets;
  /** The version and app info being prepared (their ids). */
  editable: { version: string; appInfo: string };
  /** A localization's text, by parent id and Apple locale code. */
  text(parent: string, locale: string, field: string): string | null | undefined;
  /** A person edits a text in App Store Connect. */
  edit(parent: string, locale: string, field: string, value: string): void;
  /** Sets a parent's state (`READY_FOR_DISTRIBUTION` after a release). */
  setState(parent: string, state: string): void;
  /** A person creates the next version: Apple copies the live one's localizations into it. */
  newVersion(versionString: string): string;
  localeCount(parent: string): number;
}

const appleError = (res: ServerResponse, status: number, code: string, title: string, detail: string, headers: Record<string, string> = {}, pointer?: string) =>
  sendJson(res, status, { errors: [{ id: crypto.randomUUID(), status: String(status), code, title, detail, ...(pointer ? { source: { pointer } } : {}) }] }, headers);

function keyPair(): { pem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

/** Why a token is refused, or undefined when App Store Connect would take it. */
function tokenProblem(authorization: string | undefined, publicKey: KeyObject): string | undefined {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
  if (!token) return 'no bearer token';
  const [head, claims, signature] = token.split('.');
  if (!head || !claims || !signature) return 'not a JWT';
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string; kid?: string; typ?: string };
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { iss?: string; iat?: number; exp?: number; aud?: string };
  if (header.alg !== 'ES256' || header.kid !== KEY_ID) return 'header';
  if (payload.iss !== ISSUER || payload.aud !== 'appstoreconnect-v1') return 'claims';
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.exp !== 'number' || payload.exp <= now || payload.exp - (payload.iat ?? now) > 20 * 60) return 'expiry';
  const ok = verify('sha256', Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  return ok ? undefined : 'signature';
}

export async function startAppStoreConnectMock(): Promise<AppStoreConnectMock> {
  const good = keyPair();
  const other = keyPair();
  const parents = new Map<string, Parent>();
  const localizations = new Map<string, Localization>();
  const add = (type: Type, parent: string, locale: string, attributes: Record<string, string | null>) => {
    const id = crypto.randomUUID();
    localizations.set(id, { id, type, parent, locale, attributes: { ...attributes } });
    return id;
  };
  const parent = (p: Parent) => parents.set(p.id, p);

  parent({ id: 'info-live', type: 'appInfos', state: 'READY_FOR_DISTRIBUTION' });
  parent({ id: 'info-next', type: 'appInfos', state: 'PREPARE_FOR_SUBMISSION' });
  parent({ id: 'ver-1-0', type: 'appStoreVersions', state: 'READY_FOR_DISTRIBUTION', versionString: '1.0', platform: 'IOS' });
  parent({ id: 'ver-1-1', type: 'appStoreVersions', state: 'PREPARE_FOR_SUBMISSION', versionString: '1.1', platform: 'IOS' });
  parent({ id: 'ver-mac', type: 'appStoreVersions', state: 'PREPARE_FOR_SUBMISSION', versionString: '2.0', platform: 'MAC_OS' });
  const seedText = Object.fromEntries(SEED.map(({ id, source }) => [SEED_FIELDS[id]!, source]));
  for (const info of ['info-live', 'info-next']) {
    add('appInfoLocalizations', info, 'en-US', { name: 'Parlance Shop', subtitle: null, privacyPolicyUrl: 'https://example.com/privacy' });
    add('appInfoLocalizations', info, 'de-DE', { name: null, subtitle: null, privacyPolicyUrl: null });
    add('appInfoLocalizations', info, 'fr-FR', { name: null, subtitle: null, privacyPolicyUrl: null });
  }
  add('appStoreVersionLocalizations', 'ver-1-0', 'en-US', { description: 'The old description', keywords: 'shop,store', promotionalText: null, whatsNew: null, supportUrl: 'https://example.com' });
  add('appStoreVersionLocalizations', 'ver-1-0', 'de-DE', { description: 'Die alte Beschreibung', keywords: null, promotionalText: null, whatsNew: null, supportUrl: null });
  for (const locale of ['en-US', 'de-DE', 'fr-FR']) {
    add('appStoreVersionLocalizations', 'ver-1-1', locale, locale === 'en-US' ? { ...seedText, supportUrl: 'https://example.com' } : { description: null, keywords: null, promotionalText: null, whatsNew: null, supportUrl: null });
  }
  add('appStoreVersionLocalizations', 'ver-mac', 'en-US', { description: 'For the Mac', keywords: null, promotionalText: null, whatsNew: null });

  const find = (parentId: string, locale: string) => [...localizations.values()].find((l) => l.parent === parentId && l.locale === locale);
  const view = (l: Localization, origin: string) => ({
    type: l.type,
    id: l.id,
    attributes: { locale: l.locale, ...Object.fromEntries(Object.entries(l.attributes).filter(([k]) => (l.type === 'appInfoLocalizations' ? INFO_FIELDS : VERSION_FIELDS).includes(k))) },
    relationships: {},
    links: { self: `${origin}/v1/${l.type}/${l.id}` },
  });
  const parentView = (p: Parent, origin: string) =>
    p.type === 'appInfos'
      ? { type: 'appInfos', id: p.id, attributes: { appStoreState: p.state === 'READY_FOR_DISTRIBUTION' ? 'READY_FOR_SALE' : p.state, state: p.state, appStoreAgeRating: 'FOUR_PLUS' }, links: { self: `${origin}/v1/appInfos/${p.id}` } }
      : { type: 'appStoreVersions', id: p.id, attributes: { platform: p.platform, versionString: p.versionString, appStoreState: p.state === 'READY_FOR_DISTRIBUTION' ? 'READY_FOR_SALE' : p.state, appVersionState: p.state, releaseType: 'MANUAL', createdDate: '2026-11-01T10:00:00-07:00' }, links: { self: `${origin}/v1/appStoreVersions/${p.id}` } };

  /** A list document, paged by `limit` and an opaque `cursor`. */
  function page(res: ServerResponse, url: URL, items: unknown[]): void {
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), 200);
    const cursor = url.searchParams.get('cursor');
    const offset = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8')) : 0;
    const next = offset + limit < items.length ? new URL(url) : undefined;
    next?.searchParams.set('cursor', Buffer.from(String(offset + limit)).toString('base64url'));
    sendJson(res, 200, { data: items.slice(offset, offset + limit), links: { self: url.toString(), ...(next ? { next: next.toString() } : {}) }, meta: { paging: { total: items.length, limit } } });
  }

  /** An edit of an app info or version that has left the editable states (it went to review). */
  const stateError = (res: ServerResponse, attribute: string) =>
    appleError(res, 409, 'STATE_ERROR', 'The request cannot be fulfilled because of the state of another resource.', `Attribute '${attribute}' cannot be edited at this time`, {}, `/data/attributes/${attribute}`);
  const tooLongError = (res: ServerResponse, attribute: string) =>
    appleError(res, 409, 'ENTITY_ERROR.ATTRIBUTE.INVALID.TOO_LONG', 'An attribute value is too long.', `The attribute '${attribute}' can not be longer than ${LIMITS[attribute]} characters.`, {}, `/data/attributes/${attribute}`);
  const tooLong = (attributes: Record<string, unknown>) => Object.entries(attributes).find(([k, v]) => typeof v === 'string' && LIMITS[k] !== undefined && [...v].length > LIMITS[k]!);

  function handle({ method, url: asked, body, authorization }: RestCmsCall, res: ServerResponse): void {
    // The request's URL as the client sent it (with the port), so that `links.next` leads back here.
    const url = new URL(`${asked.pathname}${asked.search}`, server.url);
    if (tokenProblem(authorization, good.publicKey)) {
      return appleError(res, 401, 'NOT_AUTHORIZED', 'Authentication credentials are missing or invalid.', 'Provide a properly configured and signed bearer token, and make sure that it has not expired. Learn more about Generating Tokens for API Requests https://developer.apple.com/go/?id=api-generating-tokens');
    }
    const origin = url.origin;
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v1') return appleError(res, 404, 'NOT_FOUND', 'The specified resource does not exist', `The path provided does not match a defined resource type.`);
    const [, resource, id, related] = parts;
    const notFound = () => appleError(res, 404, 'NOT_FOUND', 'The specified resource does not exist', `There is no resource of type '${resource}' with id '${id}'`);
    if (resource === 'apps' && method === 'GET') {
      if (id !== ASC_APP_ID) return notFound();
      if (!related) return sendJson(res, 200, { data: { type: 'apps', id, attributes: { name: 'Parlance Shop', bundleId: 'com.example.shop', sku: 'SHOP1', primaryLocale: 'en-US' }, links: { self: `${origin}/v1/apps/${id}` } }, links: { self: url.toString() } });
      if (related === 'appInfos') return page(res, url, [...parents.values()].filter((p) => p.type === 'appInfos').map((p) => parentView(p, origin)));
      if (related === 'appStoreVersions') {
        const platforms = url.searchParams.get('filter[platform]')?.split(',');
        const states = url.searchParams.get('filter[appVersionState]')?.split(',');
        const legacy = url.searchParams.get('filter[appStoreState]')?.split(',');
        const versions = [...parents.values()]
          .filter((p) => p.type === 'appStoreVersions')
          .filter((p) => !platforms || platforms.includes(p.platform!))
          .filter((p) => !states || states.includes(p.state))
          .filter((p) => !legacy || legacy.includes(p.state === 'READY_FOR_DISTRIBUTION' ? 'READY_FOR_SALE' : p.state));
        return page(res, url, versions.map((p) => parentView(p, origin)));
      }
      return notFound();
    }
    if ((resource === 'appInfos' || resource === 'appStoreVersions') && method === 'GET' && related) {
      const owner = parents.get(id ?? '');
      if (!owner || owner.type !== resource) return notFound();
      const type = resource === 'appInfos' ? 'appInfoLocalizations' : 'appStoreVersionLocalizations';
      if (related !== type) return notFound();
      return page(res, url, [...localizations.values()].filter((l) => l.parent === owner.id).map((l) => view(l, origin)));
    }
    if (resource !== 'appInfoLocalizations' && resource !== 'appStoreVersionLocalizations') return notFound();
    const request = body as { data?: { type?: string; id?: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: { id?: string } }> } } | undefined;
    if (method === 'POST' && !id) {
      const data = request?.data;
      if (data?.type !== resource) return appleError(res, 409, 'ENTITY_ERROR.INCLUDED.INVALID_TYPE', 'The provided entity includes an invalid type', `Expected the type '${resource}'.`);
      const relation = resource === 'appInfoLocalizations' ? 'appInfo' : 'appStoreVersion';
      const owner = parents.get(data.relationships?.[relation]?.data?.id ?? '');
      if (!owner) return appleError(res, 409, 'ENTITY_ERROR.RELATIONSHIP.INVALID', 'The provided entity includes a relationship with an invalid value', `'${relation}' is not a valid relationship`);
      const locale = data.attributes?.locale;
      if (typeof locale !== 'string') return appleError(res, 409, 'ENTITY_ERROR.ATTRIBUTE.REQUIRED', 'The provided entity is missing a required attribute', "You must provide a value for the attribute 'locale' with this request");
      if (resource === 'appInfoLocalizations' && typeof data.attributes?.name !== 'string') return appleError(res, 409, 'ENTITY_ERROR.ATTRIBUTE.REQUIRED', 'The provided entity is missing a required attribute', "You must provide a value for the attribute 'name' with this request");
      if (!EDITABLE.has(owner.state)) return stateError(res, 'locale');
      if (find(owner.id, locale)) return appleError(res, 409, 'ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE', 'The provided entity includes an attribute with a value that has already been used', `Entity with locale: '${locale}' already exists. Try updating.`, {}, '/data/attributes/locale');
      const long = tooLong(data.attributes ?? {});
      if (long) return tooLongError(res, long[0]);
      const { locale: _locale, ...attributes } = data.attributes as Record<string, string>;
      const created = add(resource, owner.id, locale, attributes);
      return sendJson(res, 201, { data: view(localizations.get(created)!, origin), links: { self: `${origin}/v1/${resource}/${created}` } });
    }
    const localization = localizations.get(id ?? '');
    if (!localization || localization.type !== resource) return notFound();
    if (method === 'GET') return sendJson(res, 200, { data: view(localization, origin), links: { self: url.toString() } });
    if (method === 'PATCH') {
      const data = request?.data;
      if (data?.type !== resource || data.id !== localization.id) return appleError(res, 409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', 'The provided entity includes an attribute with an invalid value', "The 'type' and 'id' must match the resource in the URL.");
      const attributes = data.attributes ?? {};
      const allowed = resource === 'appInfoLocalizations' ? INFO_FIELDS : VERSION_FIELDS;
      const unknown = Object.keys(attributes).find((k) => !allowed.includes(k));
      if (unknown) return appleError(res, 409, 'ENTITY_ERROR.ATTRIBUTE.UNKNOWN', 'The provided entity includes an unknown attribute', `'${unknown}' is not an attribute on the resource '${resource}'`);
      const state = parents.get(localization.parent)!.state;
      const locked = Object.keys(attributes).find((k) => k !== 'promotionalText');
      if (!EDITABLE.has(state) && locked) return stateError(res, locked);
      const long = tooLong(attributes);
      if (long) return tooLongError(res, long[0]);
      Object.assign(localization.attributes, attributes);
      return sendJson(res, 200, { data: view(localization, origin), links: { self: url.toString() } });
    }
    return appleError(res, 405, 'METHOD_NOT_ALLOWED', 'The request method is not valid for the resource path.', `The request method '${method}' is not valid for this path.`);
  }

  const server = await serveRestCms({
    tooManyRequests: (res, headers) => appleError(res, 429, 'RATE_LIMIT_EXCEEDED', 'The request rate limit has been reached.', "We've received too many requests for this API. Please wait and try again or slow down your request rate.", { ...headers, 'x-rate-limit': 'user-hour-lim:3600;user-hour-rem:0;' }),
    internalError: (res, error) => appleError(res, 500, 'UNEXPECTED_ERROR', 'An unexpected error occurred.', `An unexpected error occurred on the server side: ${String(error)}`),
    handle,
  });
  const secrets = (pem: string): AscSecrets => ({ issuer_id: ISSUER, key_id: KEY_ID, private_key: pem });
  return {
    ...server,
    secrets: secrets(good.pem),
    wrongSecrets: secrets(other.pem),
    editable: { version: 'ver-1-1', appInfo: 'info-next' },
    text: (parentId, locale, field) => find(parentId, locale)?.attributes[field],
    edit(parentId, locale, field, value) {
      const localization = find(parentId, locale);
      if (localization) localization.attributes[field] = value;
      else add(parents.get(parentId)!.type === 'appInfos' ? 'appInfoLocalizations' : 'appStoreVersionLocalizations', parentId, locale, { [field]: value });
    },
    setState(parentId, state) {
      parents.get(parentId)!.state = state;
    },
    newVersion(versionString) {
      const live = [...parents.values()].find((p) => p.type === 'appStoreVersions' && p.platform === 'IOS' && p.state === 'READY_FOR_DISTRIBUTION')!;
      const id = `ver-${versionString.replaceAll('.', '-')}`;
      parent({ id, type: 'appStoreVersions', state: 'PREPARE_FOR_SUBMISSION', versionString, platform: 'IOS' });
      for (const l of [...localizations.values()].filter((x) => x.parent === live.id)) add(l.type, id, l.locale, { ...l.attributes, whatsNew: null });
      return id;
    },
    localeCount: (parentId) => [...localizations.values()].filter((l) => l.parent === parentId).length,
  };
}

/** The Apple locale code of a kit locale in the mock. */
const CODES: Record<string, string> = { de: 'de-DE', fr: 'fr-FR', ja: 'ja' };

export async function appStoreConnectFixture(): Promise<RemoteFixture> {
  const mock = await startAppStoreConnectMock();
  const field = (id: string) => {
    const name = SEED_FIELDS[id];
    if (!name) throw new Error(`No App Store Connect field for seed '${id}'`);
    return name;
  };
  const version = mock.editable.version;
  return {
    connector: 'app_store_connect',
    settings: { app_id: ASC_APP_ID, api_url: mock.url },
    secrets: { ...mock.secrets },
    badSecrets: { ...mock.wrongSecrets },
    async setSource(id, text) {
      mock.edit(version, 'en-US', field(id), text);
    },
    translation: async (id, locale) => mock.text(version, CODES[locale] ?? locale, field(id)) || undefined,
    async editTranslation(id, locale, text) {
      mock.edit(version, CODES[locale] ?? locale, field(id), text);
    },
    sourceCount: async () => Object.values(SEED_FIELDS).filter((f) => mock.text(version, 'en-US', f)).length,
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
