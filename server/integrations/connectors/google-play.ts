/**
 * Google Play Console as a two-way content connector: an app's store listing (title, short and full description per
 * language) and, when a track is named, the release notes of that track's latest release, through the Android
 * Publisher API v3 (`https://androidpublisher.googleapis.com/androidpublisher/v3/applications/{packageName}`),
 * authenticated as a service account (google-auth.ts) with the `androidpublisher` scope.
 *
 * Everything Play holds for an app is read and changed inside an edit: `POST …/edits` makes one (a copy of the app as
 * it is now), reads and changes go to `…/edits/{editId}/…`, `POST …/edits/{editId}:commit` makes the changes live and
 * `DELETE …/edits/{editId}` discards them. Listing opens an edit only to read and always deletes it, so a sync leaves
 * nothing open. Writing opens its own edit, reads the listings (and the track) again inside it, leaves any field a
 * person changed since the listing, patches the rest and commits once; any failure before the commit deletes the edit,
 * so Play is changed wholly or not at all. Writing what Play already holds changes nothing and commits nothing. A commit
 * without `changesNotSentForReview` sends for review every change waiting in the Play Console as well, a person's
 * included (Google's "Concurrency considerations"): the setting's description, the guide and the write's note say so.
 *
 * Google allows each account one open edit per app (inserting another deletes the first) and deletes every open edit
 * when one is committed or when a person saves a change in the Play Console. Google then answers "This Edit has been
 * deleted." to the next call; the connector reports that as `unavailable` (nothing was written) so the sync is tried
 * again, reading anew.
 *
 * A language the app has no listing in is added (a PUT of the listing) only when `add_languages` is set: a new listing
 * language is shown to Play users of that language as soon as it is committed, which is a person's decision.
 *
 * Webhooks: Play's Real-time developer notifications (Cloud Pub/Sub) report purchases and subscriptions, never a store
 * listing change, so none is offered: syncs run on the schedule and on demand.
 *
 * References: developers.google.com/android-publisher/api-ref/rest/v3/edits (AppEdit {id, expiryTimeSeconds}; insert,
 * delete, commit with `changesNotSentForReview`), …/edits.details (AppDetails.defaultLanguage), …/edits.listings
 * (Listing {language, title, shortDescription, fullDescription, video}; list, patch, update), …/edits.tracks (Track
 * {track, releases: [{name, versionCodes, releaseNotes: [{language, text}], status}]}; get, update),
 * developers.google.com/android-publisher/edits (the workflow), …/concurrency-considerations (one active edit per user
 * and app; the first commit and any Console change invalidate the others), and Play Console Help on the store
 * listing's limits (title 30, short description 80, full description 4000, release notes 500 characters).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringWrite, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson, vendorMessage, type FailureWording } from '../connector-http.js';
import { googleAuthorization, googleSecrets, type GoogleSecrets } from '../google-auth.js';
import { sameLocale } from '../remote-locales.js';

const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
/** The largest answer read: every listing of an app (about 80 languages × 4000-character descriptions) stays far below it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Play offers fewer than 100 listing languages: more listings than this is not an answer to trust. */
const MAX_LISTINGS = 200;
const MAX_RELEASES = 20;

const LISTING_FIELDS = { title: 30, shortDescription: 80, fullDescription: 4000 } as const;
const RELEASE_NOTES_LIMIT = 500;
const FIELDS = ['title', 'shortDescription', 'fullDescription', 'releaseNotes'] as const;
type Field = (typeof FIELDS)[number];
type ListingField = keyof typeof LISTING_FIELDS;

/**
 * The store listing languages the Play Console offers (Play Console Help, "Add translations"; the same list as
 * fastlane supply's), for adding a language the app lacks. Play writes Hebrew as `iw-IL`.
 */
export const PLAY_LANGUAGES = [
  'af', 'am', 'ar', 'az-AZ', 'be', 'bg', 'bn-BD', 'ca', 'cs-CZ', 'da-DK', 'de-DE', 'el-GR', 'en-AU', 'en-CA', 'en-GB', 'en-IN', 'en-SG', 'en-US', 'en-ZA',
  'es-419', 'es-ES', 'es-US', 'et', 'eu-ES', 'fa', 'fi-FI', 'fil', 'fr-CA', 'fr-FR', 'gl-ES', 'gu', 'hi-IN', 'hr', 'hu-HU', 'hy-AM', 'id', 'is-IS', 'it-IT',
  'iw-IL', 'ja-JP', 'ka-GE', 'kk', 'km-KH', 'kn-IN', 'ko-KR', 'ky-KG', 'lo-LA', 'lt', 'lv', 'mk-MK', 'ml-IN', 'mn-MN', 'mr-IN', 'ms', 'ms-MY', 'my-MM',
  'ne-NP', 'nl-NL', 'no-NO', 'pa', 'pl-PL', 'pt-BR', 'pt-PT', 'rm', 'ro', 'ru-RU', 'si-LK', 'sk', 'sl', 'sr', 'sv-SE', 'sw', 'ta-IN', 'te-IN', 'th',
  'tr-TR', 'uk', 'ur', 'vi', 'zh-CN', 'zh-HK', 'zh-TW', 'zu',
];
/** Where a language has several Play codes, the one a bare project tag means (`fr` → `fr-FR`, `zh` → `zh-CN`). */
const DEFAULT_REGION: Record<string, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', pt: 'pt-BR', zh: 'zh-CN', ms: 'ms' };
/** Play's codes for languages whose ISO code changed (Hebrew is still `iw`). */
const OLD_LANGUAGE: Record<string, string> = { he: 'iw' };

const PLAY_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const GooglePlaySettings = z
  .object({
    package_name: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, "Expected the app's package name (such as 'com.example.shop') in `package_name`.")
      .openapi({ description: "The app's package name (application id), as the Play Console shows it under the app's name: `com.example.shop`." }),
    release_notes_track: z
      .string()
      .regex(/^[a-z0-9:_-]+$/i, "Expected a Play track name such as 'production', 'beta' or 'wear:production' in `release_notes_track`.")
      .optional()
      .openapi({ description: "Also translate the release notes (What's new, 500 characters) of this track's latest release: `production`, `beta`, `alpha`, `internal`, a closed testing track's name, `wear:production`. Default: release notes are not translated." }),
    locales: z
      .record(z.string(), z.string().regex(PLAY_CODE, "Expected Play language codes such as 'de-DE' or 'es-419' as the values of `locales`."))
      .default({})
      .openapi({ description: 'Parlance locale → Play language code where the match is not plain (`{"es": "es-419", "nb": "no-NO"}`). Otherwise the same tag, or the only (or the usual) code of its language: `de` → `de-DE`, `fr` → `fr-FR`, `ja` → `ja-JP`.' }),
    add_languages: z
      .boolean()
      .default(false)
      .openapi({ description: "Add a store listing in the project's target locales the app has none in. Default false: a new listing language is shown on Google Play as soon as it is committed, so it is a person's decision." }),
    changes_not_sent_for_review: z
      .boolean()
      .default(false)
      .openapi({ description: "Commit with `changesNotSentForReview=true`: the changes wait in the Play Console until a person sends them for review. Set it when Google refuses a commit with 'Changes cannot be sent for review automatically' (an app whose changes are managed, or after a rejection); leave it false otherwise, as Google then refuses the parameter. Warning: with this false (the default), each commit Parlance makes also sends for review every change a person has waiting to be sent in the Play Console (Google's \"Concurrency considerations\"); with it true, Parlance's changes join those waiting and go for review when a person sends them." }),
    api_url: z.string().url().default('https://androidpublisher.googleapis.com').openapi({ description: 'The Android Publisher API. Default `https://androidpublisher.googleapis.com`.' }),
  })
  .strict();

export type GooglePlaySettings = z.infer<typeof GooglePlaySettings>;
type Ctx = ConnectorContext<GooglePlaySettings, GoogleSecrets>;

interface PlayListing {
  language?: string;
  title?: string;
  shortDescription?: string;
  fullDescription?: string;
  video?: string;
}
interface Release {
  name?: string;
  versionCodes?: string[];
  releaseNotes?: { language?: string; text?: string }[];
  status?: string;
  [other: string]: unknown;
}
interface Track {
  track?: string;
  releases?: Release[];
}

/** What `write` needs: the field, each target locale's Play code, what each held when listed, and the release read. */
type PlayRef = { field: Field; codes: Record<string, string>; seen: Record<string, string>; release?: string };

const WORDING: FailureWording = {
  vendor: 'Google Play',
  credentials: "the connection's service_account (invited in the Play Console under Users and permissions, with the app's store presence permissions)",
  settings: "the connection's package_name and release_notes_track",
};

/** An answer Google never gives comes from another server: asking again gets the same one, so the setting is named. */
const CHECK_API_URL = 'Check that `api_url` is the Android Publisher API (https://androidpublisher.googleapis.com).';

const base = (ctx: Ctx) => `${ctx.settings.api_url.replace(/\/+$/, '')}/androidpublisher/v3/applications/${encodeURIComponent(ctx.settings.package_name)}`;

/** "This Edit has been deleted." and "This edit has expired…": someone else's commit or a Console change won the race. */
const EDIT_GONE = /edit has (been deleted|expired|already been)/i;

/** One Android Publisher call; its answer read up to MAX_BODY_BYTES. 404 gives null when `missing` allows it. */
async function call<T>(ctx: Ctx, path: string, what: string, init: { method?: string; body?: unknown; missing?: boolean } = {}): Promise<T | null> {
  const response = await ctx.http.request(`${base(ctx)}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: await googleAuthorization(ctx.http, ctx.secrets, [SCOPE]), accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  if (response.status === 404 && init.missing) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const said = vendorMessage(text);
    if (EDIT_GONE.test(said)) {
      throw new ConnectorError('unavailable', `${what}: Google Play closed Parlance's edit ("${said}"): another edit of ${ctx.settings.package_name} was opened or committed meanwhile (by the Play Console, or another tool using the same service account). Nothing was written; the sync will read again.`);
    }
    if (response.status === 404) throw new ConnectorError('config', `${what}: Google Play has no app ${ctx.settings.package_name} this service account can see (HTTP 404: ${said}). Check \`package_name\`, and that the account is invited to the app in the Play Console.`);
    // The body was read above to recognise a deleted edit: `failure` reads it again from a copy.
    throw await failure(new Response(text, { status: response.status, headers: response.headers }), what, WORDING);
  }
  return (await readJson<T | undefined>(response, what, { maxBytes: MAX_BODY_BYTES })) ?? null;
}

async function openEdit(ctx: Ctx): Promise<string> {
  const edit = await call<{ id?: unknown }>(ctx, '/edits', `Opening an edit of ${ctx.settings.package_name}`, { method: 'POST', body: {} });
  if (typeof edit?.id !== 'string' || edit.id === '') throw new ConnectorError('unavailable', `Opening an edit of ${ctx.settings.package_name}: Google Play's answer has no edit id.`);
  return edit.id;
}

/** Discards an edit; a failure is returned as a note, since the edit expires on its own and the next insert replaces it. */
async function discardEdit(ctx: Ctx, editId: string): Promise<string | undefined> {
  try {
    await call(ctx, `/edits/${encodeURIComponent(editId)}`, `Deleting edit ${editId}`, { method: 'DELETE', missing: true });
    return undefined;
  } catch (error) {
    return `Could not delete edit ${editId} (${error instanceof Error ? error.message : String(error)}); Google discards it when it expires or when the next edit is opened.`;
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const language = (code: string) => code.split(/[-_]/)[0]!.toLowerCase();

/**
 * A project tag's Play language code among `codes`: the `locales` map, else the same tag, else, for a bare language
 * tag, its language's only code or its usual one (`fr` → `fr-FR` when both `fr-FR` and `fr-CA` are there).
 */
export function playCodeFor(tag: string, codes: readonly string[], map: Record<string, string>): string | undefined {
  const mapped = map[tag];
  if (mapped) return codes.find((code) => sameLocale(code, mapped));
  const old = OLD_LANGUAGE[language(tag)];
  const wanted = old ? `${old}${tag.slice(language(tag).length)}` : tag;
  const exact = codes.find((code) => sameLocale(code, tag) || sameLocale(code, wanted));
  if (exact || language(tag) !== tag.toLowerCase()) return exact;
  const same = codes.filter((code) => language(code) === language(wanted));
  return same.length === 1 ? same[0] : same.find((code) => code === DEFAULT_REGION[tag.toLowerCase()]);
}

/** The release whose notes are translated: the track's newest (the highest version code), and a stable name for it. */
function latestRelease(ctx: Ctx, track: Track): { release: Release; id: string } | undefined {
  const releases = track.releases ?? [];
  if (releases.length > MAX_RELEASES) throw new ConnectorError('config', `Reading track '${track.track}' of ${ctx.settings.package_name}: ${releases.length} active releases, more than the ${MAX_RELEASES} a track holds; the answer is not trusted. ${CHECK_API_URL}`);
  const top = (release: Release) => Math.max(0, ...(release.versionCodes ?? []).map(Number).filter(Number.isFinite));
  const release = releases.reduce<Release | undefined>((best, r) => (best === undefined || top(r) > top(best) ? r : best), undefined);
  return release ? { release, id: (release.versionCodes ?? []).join(',') || text(release.name) } : undefined;
}

const notesIn = (release: Release | undefined, code: string) => text(release?.releaseNotes?.find((n) => n.language === code)?.text);

interface Snapshot {
  defaultLanguage: string;
  listings: Map<string, PlayListing>;
  release?: { release: Release; id: string };
  track?: Track;
}

async function readListings(ctx: Ctx, editId: string): Promise<Map<string, PlayListing>> {
  const body = await call<{ listings?: PlayListing[] }>(ctx, `/edits/${encodeURIComponent(editId)}/listings`, `Reading the store listings of ${ctx.settings.package_name}`);
  const listings = body?.listings ?? [];
  if (!Array.isArray(listings)) throw new ConnectorError('config', `Reading the store listings of ${ctx.settings.package_name}: the answer has no listings list. ${CHECK_API_URL}`);
  if (listings.length > MAX_LISTINGS) throw new ConnectorError('config', `Reading the store listings of ${ctx.settings.package_name}: ${listings.length} listings, more than the ${MAX_LISTINGS} Play could hold; the answer is not trusted. ${CHECK_API_URL}`);
  return new Map(listings.filter((l) => typeof l.language === 'string').map((l) => [l.language!, l]));
}

async function readTrack(ctx: Ctx, editId: string, name: string): Promise<Track> {
  const track = await call<Track>(ctx, `/edits/${encodeURIComponent(editId)}/tracks/${encodeURIComponent(name)}`, `Reading track '${name}' of ${ctx.settings.package_name}`, { missing: true });
  if (!track) throw new ConnectorError('config', `${ctx.settings.package_name} has no track '${name}' in Google Play: check \`release_notes_track\` (production, beta, alpha, internal, or a closed testing track's name).`);
  return track;
}

async function snapshot(ctx: Ctx, editId: string): Promise<Snapshot> {
  const details = await call<{ defaultLanguage?: string }>(ctx, `/edits/${encodeURIComponent(editId)}/details`, `Reading the details of ${ctx.settings.package_name}`);
  const listings = await readListings(ctx, editId);
  const track = ctx.settings.release_notes_track ? await readTrack(ctx, editId, ctx.settings.release_notes_track) : undefined;
  const release = track ? latestRelease(ctx, track) : undefined;
  return { defaultLanguage: text(details?.defaultLanguage), listings, ...(track ? { track } : {}), ...(release ? { release } : {}) };
}

const NOTES: Record<Field, string> = {
  title: "The app's name on Google Play.",
  shortDescription: 'The first text people see on the app’s detail page.',
  fullDescription: 'The app’s description on Google Play.',
  releaseNotes: "What's new in this release, shown on Google Play under the app's description.",
};

function toListing(ctx: Ctx, shot: Snapshot): Listing {
  const primary = shot.defaultLanguage;
  if (!playCodeFor(ctx.sourceLocale, [primary], ctx.settings.locales)) {
    throw new ConnectorError('config', `The default language of ${ctx.settings.package_name} is '${primary}', which is not the project's source locale '${ctx.sourceLocale}': the listing would be translated from the wrong language. Change the app's default language in the Play Console, or map it with \`locales\` ({"${ctx.sourceLocale}": "${primary}"}) if they are the same language.`);
  }
  const source = shot.listings.get(primary);
  const codes = [...shot.listings.keys()].filter((code) => code !== primary);
  const targets = new Map<string, string>();
  const lacking: string[] = [];
  for (const tag of ctx.targetLocales) {
    const code = playCodeFor(tag, codes, ctx.settings.locales);
    if (code) targets.set(tag, code);
    else lacking.push(tag);
  }
  if (ctx.settings.add_languages) {
    for (const tag of lacking) {
      const code = playCodeFor(tag, PLAY_LANGUAGES, ctx.settings.locales);
      if (code && code !== primary) targets.set(tag, code);
    }
  }
  const unmapped = lacking.filter((tag) => !targets.has(tag));
  const notes = [`Read the store listing of ${ctx.settings.package_name} in ${shot.listings.size} language(s), default ${primary}.`];
  if (!source) notes.push(`It has no ${primary} listing (the default language): nothing to translate from.`);
  if (unmapped.length) notes.push(ctx.settings.add_languages ? `No Play language for ${unmapped.join(', ')}: set \`locales\`.` : `The app has no listing in ${unmapped.join(', ')}: not translated (set \`add_languages\` to add them, or \`locales\` to map them to an existing one).`);
  const strings: RemoteString[] = [];
  const codesRef = Object.fromEntries(targets);
  const add = (field: Field, value: string, maxLength: number, seenOf: (code: string) => string, release?: string) => {
    if (!value.trim()) return;
    const seen = Object.fromEntries([...targets].map(([tag, code]) => [tag, seenOf(code)]));
    const ref: PlayRef = { field, codes: codesRef, seen, ...(release !== undefined ? { release } : {}) };
    strings.push({
      key: field,
      source: value,
      maxLength,
      context: field === 'releaseNotes' ? `Google Play release notes (track ${ctx.settings.release_notes_track})` : `Google Play store listing field ${field}`,
      notes: NOTES[field],
      ref,
      translations: Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== '')),
    });
  };
  for (const field of Object.keys(LISTING_FIELDS) as ListingField[]) add(field, text(source?.[field]), LISTING_FIELDS[field], (code) => text(shot.listings.get(code)?.[field]));
  if (ctx.settings.release_notes_track) {
    if (shot.release) {
      add('releaseNotes', notesIn(shot.release.release, primary), RELEASE_NOTES_LIMIT, (code) => notesIn(shot.release!.release, code), shot.release.id);
      notes.push(`Release notes of the '${ctx.settings.release_notes_track}' release ${text(shot.release.release.name) || shot.release.id}.`);
    } else notes.push(`Track '${ctx.settings.release_notes_track}' has no release: no release notes to translate.`);
  }
  return { units: [{ kind: 'strings', path: 'store-listing', strings, locales: [...targets.keys()] }], note: notes.join(' ') };
}

async function list(ctx: Ctx): Promise<Listing> {
  const editId = await openEdit(ctx);
  let shot: Snapshot;
  try {
    shot = await snapshot(ctx, editId);
  } catch (error) {
    await discardEdit(ctx, editId);
    throw error;
  }
  const problem = await discardEdit(ctx, editId);
  const listing = toListing(ctx, shot);
  return problem ? { ...listing, note: `${listing.note} ${problem}` } : listing;
}

function readRef(write: StringWrite): PlayRef {
  const ref = write.ref as PlayRef | undefined;
  if (!ref || !FIELDS.includes(ref.field) || typeof ref.codes !== 'object' || typeof ref.seen !== 'object') {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Google Play: the string carries no Google Play reference; sync again so it is listed anew.`);
  }
  return ref;
}

interface Plan {
  /** Listing changes by Play code, and whether the listing is new (PUT) or exists (PATCH). */
  listings: Map<string, { fields: Partial<Record<ListingField, string>>; create: boolean }>;
  notes: Map<string, string>;
  kept: string[];
  skipped: string[];
  /** The writes left undone (kept or skipped): not recorded as written. */
  unwritten: StringWrite[];
}

/** Decides, against what the edit holds now, what each write changes: nothing already there, nothing a person changed. */
function plan(ctx: Ctx, now: { listings: Map<string, PlayListing>; release?: { release: Release; id: string } }, writes: readonly StringWrite[]): Plan {
  const result: Plan = { listings: new Map(), notes: new Map(), kept: [], skipped: [], unwritten: [] };
  for (const write of writes) {
    const ref = readRef(write);
    const code = ref.codes[write.locale];
    if (!code) {
      result.skipped.push(`${write.locale} is not a language of the app's listing (set \`add_languages\` to add it)`);
      result.unwritten.push(write);
      continue;
    }
    const listing = now.listings.get(code);
    if (!listing && !ctx.settings.add_languages) {
      result.skipped.push(`the ${code} listing was deleted since the listing`);
      result.unwritten.push(write);
      continue;
    }
    const seen = ref.seen[write.locale] ?? '';
    if (ref.field === 'releaseNotes') {
      if (!now.release || now.release.id !== ref.release) {
        result.skipped.push(`release notes (${write.locale}): the '${ctx.settings.release_notes_track}' track has another latest release since the listing`);
        result.unwritten.push(write);
        continue;
      }
      const current = notesIn(now.release.release, code);
      if (current === write.text) continue;
      if (current !== seen) {
        result.kept.push(`releaseNotes (${write.locale})`);
        result.unwritten.push(write);
      } else result.notes.set(code, write.text);
      continue;
    }
    const current = text(listing?.[ref.field]);
    if (current === write.text) continue;
    if (current !== seen) {
      result.kept.push(`${ref.field} (${write.locale})`);
      result.unwritten.push(write);
      continue;
    }
    const entry = result.listings.get(code) ?? { fields: {}, create: !listing };
    entry.fields[ref.field] = write.text;
    result.listings.set(code, entry);
  }
  return result;
}

/** The track with the latest release's notes replaced in `notes`' languages; every other release as read. */
function withNotes(track: Track, releaseId: string, notes: Map<string, string>): Track {
  return {
    track: track.track,
    releases: (track.releases ?? []).map((release) => {
      if ((release.versionCodes ?? []).join(',') !== releaseId && text(release.name) !== releaseId) return release;
      const kept = (release.releaseNotes ?? []).filter((n) => !notes.has(text(n.language)));
      return { ...release, releaseNotes: [...kept, ...[...notes].map(([language, text]) => ({ language, text }))] };
    }),
  };
}

async function commit(ctx: Ctx, editId: string): Promise<void> {
  const query = ctx.settings.changes_not_sent_for_review ? '?changesNotSentForReview=true' : '';
  const what = `Committing edit ${editId} of ${ctx.settings.package_name}`;
  try {
    await call(ctx, `/edits/${encodeURIComponent(editId)}:commit${query}`, what, { method: 'POST' });
  } catch (error) {
    // A commit whose answer was lost and that the HTTP client sent again: Google already made the edit live.
    if (error instanceof ConnectorError && /already been successfully committed/i.test(error.message)) return;
    if (error instanceof ConnectorError && error.kind === 'config' && /changesNotSentForReview/.test(error.message)) {
      const wants = /cannot be sent for review automatically/i.test(error.message);
      throw new ConnectorError('config', `${error.message} Google decides whether an app's changes go for review on their own: set \`changes_not_sent_for_review\` to ${wants ? 'true (then a person sends the changes for review in the Play Console)' : 'false'} and sync again.`);
    }
    throw error;
  }
}

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const refs = writeBack.strings.map(readRef);
  const editId = await openEdit(ctx);
  let decided: Plan;
  try {
    const listings = await readListings(ctx, editId);
    const needsTrack = ctx.settings.release_notes_track !== undefined && refs.some((ref) => ref.field === 'releaseNotes');
    const track = needsTrack ? await readTrack(ctx, editId, ctx.settings.release_notes_track!) : undefined;
    const release = track ? latestRelease(ctx, track) : undefined;
    decided = plan(ctx, { listings, ...(release ? { release } : {}) }, writeBack.strings);
    for (const [code, change] of decided.listings) {
      const path = `/edits/${encodeURIComponent(editId)}/listings/${encodeURIComponent(code)}`;
      if (change.create) await call(ctx, path, `Adding the ${code} store listing`, { method: 'PUT', body: { language: code, ...change.fields } });
      else await call(ctx, path, `Writing the ${code} store listing`, { method: 'PATCH', body: change.fields });
    }
    if (decided.notes.size > 0 && track && release) {
      const name = ctx.settings.release_notes_track!;
      await call(ctx, `/edits/${encodeURIComponent(editId)}/tracks/${encodeURIComponent(name)}`, `Writing the release notes of track '${name}'`, { method: 'PUT', body: withNotes(track, release.id, decided.notes) });
    }
    if (decided.listings.size > 0 || decided.notes.size > 0) await commit(ctx, editId);
    else await discardEdit(ctx, editId);
  } catch (error) {
    // Nothing reaches Google Play unless the commit succeeded: the edit and everything in it is discarded.
    await discardEdit(ctx, editId);
    throw error;
  }
  const written = [...decided.listings.values()].reduce((n, c) => n + Object.keys(c.fields).length, 0) + decided.notes.size;
  const notes: string[] = [];
  if (written) {
    notes.push(
      ctx.settings.changes_not_sent_for_review
        ? `Committed ${written} field(s) to Google Play in one edit, not sent for review: they wait in the Play Console, beside any changes a person has there, until a person sends them for review.`
        : `Committed ${written} field(s) to Google Play in one edit and sent them for review; the commit also sent for review any changes a person had waiting in the Play Console (Google sends every pending change with a commit).`,
    );
  }
  if (decided.kept.length) notes.push(`Left ${decided.kept.length} field(s) a person changed in the Play Console since the listing: ${decided.kept.slice(0, 10).join(', ')}.`);
  if (decided.skipped.length) notes.push(`Not written: ${[...new Set(decided.skipped)].slice(0, 10).join('; ')}.`);
  const skipped = decided.unwritten.map((w) => ({ path: w.path, key: w.key, locale: w.locale }));
  return { written, ...(skipped.length ? { skipped } : {}), ...(notes.length ? { note: notes.join(' ') } : {}) };
}

export const googlePlay: Connector<GooglePlaySettings, GoogleSecrets> = {
  id: 'google_play',
  name: 'Google Play Console',
  category: 'content',
  direction: 'two_way',
  summary: "An app's Google Play store listing (title, short and full description, optionally a track's release notes) through the Android Publisher API: the default language is the source, translations are committed in one edit per sync, and a failed write leaves the app untouched.",
  settings: GooglePlaySettings,
  secrets: googleSecrets,
  list,
  write,
};
