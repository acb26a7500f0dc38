/**
 * A local Android Publisher API v3 holding one app (`com.parlance.shop`): its details (default language en-US), its
 * store listings (en-US with the kit's SEED texts, de-DE and fr-FR empty) and its production track (release 1.0
 * completed, release 1.1 rolling out, whose en-US release notes are a SEED text), behind Google's OAuth token endpoint
 * (google-oauth.ts). The kit's SEED strings: welcome = title, cart = shortDescription, checkout = fullDescription,
 * farewell = the release notes of 1.1.
 *
 * It keeps edits as Google does: `POST …/edits` copies the committed app into a new edit (and deletes the open edit
 * the same account had: one per account and app), reads and changes under `…/edits/{id}/…` touch only that copy,
 * `:commit` makes the copy the app and deletes every other open edit, `DELETE` discards it; a change a person saves in
 * the Play Console (`consoleEdit`) deletes every open edit. A deleted edit answers "This Edit has been deleted.".
 *
 * Shapes from developers.google.com/android-publisher/api-ref/rest/v3: edits (AppEdit {id, expiryTimeSeconds};
 * commit's `changesNotSentForReview`), edits.details (AppDetails {defaultLanguage, contactEmail, …}), edits.listings
 * (Listing {language, title, shortDescription, fullDescription, video}; ListingsListResponse {kind, listings}; PATCH
 * merges, PUT creates or replaces), edits.tracks (Track {track, releases: [{name, versionCodes, releaseNotes:
 * [{language, text}], status, userFraction}]}); …/concurrency-considerations (who deletes which edit); Google's error
 * envelope {error: {code, message, errors: [{domain, message, reason}], status}} with the v3 answer to a deleted edit
 * (400 INVALID_ARGUMENT "This Edit has been deleted.", quoted in Triple-T/gradle-play-publisher#998), "This edit has
 * already been successfully committed, please create a new Edit." (fastforgedev/fastforge#214), and the two commit
 * refusals about review ("Changes cannot be sent for review automatically. Please set the query parameter
 * changesNotSentForReview to true…" and "Changes are sent for review automatically. The query parameter
 * changesNotSentForReview must not be set.", quoted in r0adkll/upload-google-play#251 and ente-io/ente#1723).
 *
 * Guessed: the wording of the refusals of a text over its limit, of an unknown package ("Package not found: …"), of a
 * missing track and of a PATCH of a listing that does not exist (404 here); the tail of the first review message; that
 * DELETE answers 204 with no body; that Google checks the limits when a listing is patched rather than at commit; that
 * a track PUT replaces the track's active releases with those sent (the reference says "represents desired changes");
 * that release notes of a completed or rolling-out release can be changed this way.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { googleTokenEndpoint, makeServiceAccount, type ServiceAccountFile } from './google-oauth.js';
import { sendJson, serveOnLoopback } from './loopback.js';

export const PLAY_PACKAGE = 'com.parlance.shop';
export const PLAY_TRACK = 'production';
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const LIMITS: Record<string, number> = { title: 30, shortDescription: 80, fullDescription: 4000 };
const NOTES_LIMIT = 500;
/** Languages the mock's Play accepts for a new listing. */
const LANGUAGES = new Set(['en-US', 'de-DE', 'fr-FR', 'fr-CA', 'ja-JP', 'es-419', 'es-ES', 'iw-IL', 'zh-CN', 'zh-TW']);
/** The seed strings' places: a listing field, or the release notes of the rolling-out release. */
export const SEED_FIELDS: Record<string, string> = { welcome: 'title', cart: 'shortDescription', checkout: 'fullDescription', farewell: 'releaseNotes' };

export interface PlayListing {
  language: string;
  title: string;
  shortDescription: string;
  fullDescription: string;
  video?: string;
}
export interface PlayRelease {
  name: string;
  versionCodes: string[];
  releaseNotes?: { language: string; text: string }[];
  status: string;
  userFraction?: number;
}
interface AppState {
  details: { defaultLanguage: string; contactEmail: string };
  listings: Map<string, PlayListing>;
  tracks: Map<string, PlayRelease[]>;
}
interface Edit {
  account: string;
  state: AppState;
  expiryTimeSeconds: string;
}

export interface PlayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface PlayMock {
  url: string;
  tokenUri: string;
  account: ServiceAccountFile;
  /** A key file of an account Google does not know. */
  stranger: ServiceAccountFile;
  requests: PlayRequest[];
  /** The app as committed (what Google Play shows). */
  committed: AppState;
  /** The ids of the edits open now. */
  openEdits(): string[];
  /** What a committed listing holds in a field ('' when nothing). */
  text(language: string, field: string): string;
  /** The committed release notes of the production track's release `name` in `language`. */
  notes(language: string, name?: string): string;
  /** A person saves a change in the Play Console: a listing field or the latest release's notes; every open edit is deleted. */
  consoleEdit(language: string, field: string, value: string): void;
  /** Google reviews this app's changes only when a person sends them ('manual'), or sends them itself ('auto', default). */
  review: 'auto' | 'manual';
  /** The next `count` requests of `method` whose path contains `pathPart` answer 500, after being recorded. */
  failNext(method: string, pathPart?: string, count?: number): void;
  /** The next commit is applied, but answered 503 as if the answer were lost on the way. */
  loseNextCommitAnswer(): void;
  /** The next `count` API requests answer 429. */
  rateLimitNext(count?: number): void;
  /** Runs before an edit request is answered (a Console change racing Parlance's edit). */
  beforeEditCall?: (method: string, path: string) => void;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const googleError = (res: ServerResponse, code: number, status: string, message: string, reason = 'badRequest') =>
  sendJson(res, code, { error: { code, message, errors: [{ message, domain: 'global', reason }], status } });

const copy = (state: AppState): AppState => ({
  details: { ...state.details },
  listings: new Map([...state.listings].map(([k, v]) => [k, { ...v }])),
  tracks: new Map([...state.tracks].map(([k, v]) => [k, v.map((r) => ({ ...r, versionCodes: [...r.versionCodes], ...(r.releaseNotes ? { releaseNotes: r.releaseNotes.map((n) => ({ ...n })) } : {}) }))])),
});

function seedState(): AppState {
  const text = Object.fromEntries(SEED.map(({ id, source }) => [SEED_FIELDS[id]!, source]));
  const empty = (language: string): PlayListing => ({ language, title: '', shortDescription: '', fullDescription: '' });
  return {
    details: { defaultLanguage: 'en-US', contactEmail: 'play@parlance.example' },
    listings: new Map([
      ['en-US', { language: 'en-US', title: text.title!, shortDescription: text.shortDescription!, fullDescription: text.fullDescription!, video: 'https://www.youtube.com/watch?v=parlance' }],
      ['de-DE', empty('de-DE')],
      ['fr-FR', empty('fr-FR')],
    ]),
    tracks: new Map([
      [
        PLAY_TRACK,
        [
          { name: '1.0', versionCodes: ['10'], status: 'completed', releaseNotes: [{ language: 'en-US', text: 'First release' }, { language: 'de-DE', text: 'Erste Version' }] },
          { name: '1.1', versionCodes: ['11'], status: 'inProgress', userFraction: 0.2, releaseNotes: [{ language: 'en-US', text: text.releaseNotes! }] },
        ],
      ],
    ]),
  };
}

const trackJson = (name: string, releases: PlayRelease[]) => ({ track: name, releases });

export async function startPlayMock(): Promise<PlayMock> {
  const requests: PlayRequest[] = [];
  const edits = new Map<string, Edit>();
  const committedIds = new Set<string>();
  let rateLimited = 0;
  let commitAnswerLost = false;
  const failing: { method: string; pathPart: string; count: number }[] = [];

  const deleteOpen = (keep?: string) => {
    for (const id of [...edits.keys()]) if (id !== keep) edits.delete(id);
  };

  function overLimit(listing: Partial<PlayListing>): string | undefined {
    for (const [field, limit] of Object.entries(LIMITS)) {
      const value = listing[field as keyof PlayListing];
      if (typeof value === 'string' && [...value].length > limit) return `${field} is too long: ${[...value].length} characters, at most ${limit} are allowed.`;
    }
    return undefined;
  }

  function handle(req: IncomingMessage, raw: Buffer, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = raw.toString('utf8');
    if (endpoint.handle(req, res, url, text)) return;
    let body: unknown;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname, query: url.searchParams, body });
    if (rateLimited > 0) {
      rateLimited--;
      return googleError(res, 429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'androidpublisher.googleapis.com'.", 'rateLimitExceeded');
    }
    const failure = failing.find((f) => f.count > 0 && f.method === method && url.pathname.includes(f.pathPart));
    if (failure) {
      failure.count--;
      return googleError(res, 500, 'INTERNAL', 'Internal error encountered.', 'backendError');
    }
    if (endpoint.refuse(req, res, SCOPE)) return;
    const match = /^\/androidpublisher\/v3\/applications\/([^/]+)\/edits(?:\/([^/:]+)(?::(commit)|\/(details|listings|tracks)(?:\/([^/]+))?)?)?$/.exec(url.pathname);
    if (!match) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
    if (decodeURIComponent(match[1]!) !== PLAY_PACKAGE) return googleError(res, 404, 'NOT_FOUND', `Package not found: ${decodeURIComponent(match[1]!)}.`, 'notFound');
    const account = endpoint.issued.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '')?.email ?? '';
    const [, , rawId, action, part, rawItem] = match;
    if (rawId === undefined) {
      if (method !== 'POST') return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
      // One open edit per account and app: a new one deletes the account's previous one.
      for (const [id, edit] of edits) if (edit.account === account) edits.delete(id);
      const id = randomBytes(10).readBigUInt64BE().toString();
      const expiryTimeSeconds = String(Math.floor(Date.now() / 1000) + 7 * 24 * 3600);
      edits.set(id, { account, state: copy(mock.committed), expiryTimeSeconds });
      return sendJson(res, 200, { id, expiryTimeSeconds });
    }
    const id = decodeURIComponent(rawId);
    mock.beforeEditCall?.(method, url.pathname);
    const edit = edits.get(id);
    if (!edit) {
      if (committedIds.has(id)) return googleError(res, 400, 'INVALID_ARGUMENT', 'This edit has already been successfully committed, please create a new Edit.');
      return googleError(res, 400, 'INVALID_ARGUMENT', 'This Edit has been deleted.');
    }
    if (action === 'commit') {
      if (method !== 'POST') return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
      const notSent = url.searchParams.get('changesNotSentForReview') === 'true';
      if (mock.review === 'manual' && !notSent) {
        return googleError(res, 400, 'INVALID_ARGUMENT', 'Changes cannot be sent for review automatically. Please set the query parameter changesNotSentForReview to true. Once committed, the changes in this edit can be sent for review from the Google Play Console UI.');
      }
      if (mock.review === 'auto' && notSent) return googleError(res, 400, 'INVALID_ARGUMENT', 'Changes are sent for review automatically. The query parameter changesNotSentForReview must not be set.');
      mock.committed.details = edit.state.details;
      mock.committed.listings = edit.state.listings;
      mock.committed.tracks = edit.state.tracks;
      committedIds.add(id);
      edits.delete(id);
      // The first commit wins: every other open edit of the app is deleted.
      deleteOpen();
      if (commitAnswerLost) {
        commitAnswerLost = false;
        return googleError(res, 503, 'UNAVAILABLE', 'The service is currently unavailable.', 'backendError');
      }
      return sendJson(res, 200, { id, expiryTimeSeconds: edit.expiryTimeSeconds });
    }
    if (part === undefined) {
      if (method === 'DELETE') {
        edits.delete(id);
        res.writeHead(204).end();
        return;
      }
      if (method === 'GET') return sendJson(res, 200, { id, expiryTimeSeconds: edit.expiryTimeSeconds });
      return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
    }
    const state = edit.state;
    const item = rawItem === undefined ? undefined : decodeURIComponent(rawItem);
    if (part === 'details' && method === 'GET') return sendJson(res, 200, state.details);
    if (part === 'listings' && item === undefined && method === 'GET') return sendJson(res, 200, { kind: 'androidpublisher#listingsListResponse', listings: [...state.listings.values()] });
    if (part === 'listings' && item !== undefined) {
      const current = state.listings.get(item);
      if (method === 'GET') return current ? sendJson(res, 200, current) : googleError(res, 404, 'NOT_FOUND', `Listing for language ${item} not found.`, 'notFound');
      if (method !== 'PATCH' && method !== 'PUT') return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
      if (method === 'PATCH' && !current) return googleError(res, 404, 'NOT_FOUND', `Listing for language ${item} not found.`, 'notFound');
      if (!current && !LANGUAGES.has(item)) return googleError(res, 400, 'INVALID_ARGUMENT', `Invalid language code: ${item}.`);
      const sent = (body ?? {}) as Partial<PlayListing>;
      const next: PlayListing = method === 'PUT' ? { language: item, title: '', shortDescription: '', fullDescription: '', ...sent } : { ...current!, ...sent, language: item };
      const tooLong = overLimit(next);
      if (tooLong) return googleError(res, 400, 'INVALID_ARGUMENT', tooLong);
      state.listings.set(item, next);
      return sendJson(res, 200, next);
    }
    if (part === 'tracks' && item !== undefined) {
      const releases = state.tracks.get(item);
      if (!releases) return googleError(res, 404, 'NOT_FOUND', `Track not found: ${item}.`, 'notFound');
      if (method === 'GET') return sendJson(res, 200, trackJson(item, releases));
      if (method !== 'PUT') return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
      const sent = ((body ?? {}) as { releases?: PlayRelease[] }).releases;
      if (!Array.isArray(sent)) return googleError(res, 400, 'INVALID_ARGUMENT', 'Track must have releases.');
      for (const release of sent) {
        const long = (release.releaseNotes ?? []).find((n) => [...n.text].length > NOTES_LIMIT);
        if (long) return googleError(res, 400, 'INVALID_ARGUMENT', `Release notes for language ${long.language} are too long: at most ${NOTES_LIMIT} characters are allowed.`);
      }
      state.tracks.set(item, sent);
      return sendJson(res, 200, trackJson(item, sent));
    }
    return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', 'notFound');
  }

  const server = await serveOnLoopback(handle);
  const tokenUri = `${server.url}/token`;
  const account = makeServiceAccount(tokenUri);
  const endpoint = googleTokenEndpoint(tokenUri, [account]);
  const latest = () => mock.committed.tracks.get(PLAY_TRACK)!.at(-1)!;
  const mock: PlayMock = {
    url: server.url,
    tokenUri,
    account: account.file,
    stranger: makeServiceAccount(tokenUri, 'stranger').file,
    requests,
    committed: seedState(),
    review: 'auto',
    openEdits: () => [...edits.keys()],
    text: (language, field) => String(mock.committed.listings.get(language)?.[field as keyof PlayListing] ?? ''),
    notes: (language, name) => (name ? mock.committed.tracks.get(PLAY_TRACK)!.find((r) => r.name === name) : latest())?.releaseNotes?.find((n) => n.language === language)?.text ?? '',
    consoleEdit(language, field, value) {
      if (field === 'releaseNotes') {
        const release = latest();
        release.releaseNotes = [...(release.releaseNotes ?? []).filter((n) => n.language !== language), { language, text: value }];
      } else {
        const listing = mock.committed.listings.get(language) ?? { language, title: '', shortDescription: '', fullDescription: '' };
        mock.committed.listings.set(language, { ...listing, [field]: value });
      }
      // A change saved in the Play Console invalidates every open edit.
      deleteOpen();
    },
    failNext(method, pathPart = '', count = 1) {
      failing.push({ method, pathPart, count });
    },
    loseNextCommitAnswer() {
      commitAnswerLost = true;
    },
    rateLimitNext(count = 1) {
      rateLimited = count;
    },
    stop: server.stop,
    start: server.start,
    close: server.close,
  };
  return mock;
}

/** The Play language of a kit locale in the mock. */
const CODES: Record<string, string> = { de: 'de-DE', fr: 'fr-FR', ja: 'ja-JP' };

export async function playFixture(): Promise<RemoteFixture> {
  const mock = await startPlayMock();
  const field = (id: string) => {
    const name = SEED_FIELDS[id];
    if (!name) throw new Error(`No Google Play field for seed '${id}'`);
    return name;
  };
  const read = (id: string, language: string) => (field(id) === 'releaseNotes' ? mock.notes(language) : mock.text(language, field(id)));
  return {
    connector: 'google_play',
    settings: { package_name: PLAY_PACKAGE, release_notes_track: PLAY_TRACK, api_url: mock.url },
    secrets: { service_account: mock.account },
    badSecrets: { service_account: mock.stranger },
    async setSource(id, text) {
      mock.consoleEdit('en-US', field(id), text);
    },
    translation: async (id, locale) => read(id, CODES[locale] ?? locale) || undefined,
    async editTranslation(id, locale, text) {
      mock.consoleEdit(CODES[locale] ?? locale, field(id), text);
    },
    sourceCount: async () => Object.keys(SEED_FIELDS).filter((id) => read(id, 'en-US')).length,
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
