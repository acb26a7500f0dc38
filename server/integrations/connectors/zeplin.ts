/**
 * Zeplin as an import-only design connector (API v1): the text layers of the latest version of every screen of the
 * configured projects are source strings, one unit per project, keyed by screen and layer; the screen, its section or
 * variant, the enclosing group and the layer's name are the context, and the layer's box is a length hint in the
 * notes. Zeplin's API publishes screens from a design tool but cannot change a layer's text, so nothing is written
 * back.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit, WebhookRequest, WebhookVerdict } from '../connector.js';
import { failure, readJson, vendorMessage } from '../connector-http.js';
import { ConnectorError } from '../connector-error.js';
import { charsPerPxSetting, textBoxHint } from '../design-hints.js';
import { abortableSleep } from '../../imports/platform-http.js';
import { sameSecret } from '../same-secret.js';

/** Zeplin's ids are 24 hex digits (the part after /project/ in a project's URL). */
const ZEPLIN_ID = /^[0-9a-f]{24}$/;

const settings = z
  .object({
    api_url: z.string().url().default('https://api.zeplin.dev').openapi({ description: 'Zeplin API base URL. Default `https://api.zeplin.dev`.' }),
    project_ids: z
      .array(z.string().regex(ZEPLIN_ID, 'a Zeplin project id: the 24 hex digits after /project/ in the project URL'))
      .min(1)
      .openapi({ description: 'The projects to translate, by id: `https://app.zeplin.io/project/<id>`.' }),
    chars_per_px: charsPerPxSetting,
  })
  .strict();

const secrets = z
  .object({
    token: z
      .string()
      .min(1)
      .openapi({ description: 'A personal access token (Zeplin › Profile › Developer › Personal access tokens) or an OAuth access token of a member of the projects; sent as a Bearer token.' }),
  })
  .strict();

export type ZeplinSettings = z.infer<typeof settings>;
export type ZeplinSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<ZeplinSettings, ZeplinSecrets>;

/** Zeplin's largest page (docs.zeplin.dev/reference/pagination), and the most pages read of one collection. */
const PAGE = 100;
const MAX_PAGES = 100;
/** A screen version's JSON above this is refused rather than read (a screen is a few hundred kilobytes). */
const MAX_VERSION_BYTES = 32 * 1024 * 1024;
/** Layer trees deeper than this are not descended further (design files nest a few dozen levels at most). */
const MAX_DEPTH = 64;
/** Zeplin asks to check that a delivery is recent (docs.zeplin.dev/docs/securing-webhook-requests): five minutes. */
const DELIVERY_WINDOW_MS = 5 * 60_000;
/** The longest wait for Zeplin's rate-limit window to reset before the next request (the window is a minute). */
const MAX_PACING_MS = 65_000;

interface ZeplinProject {
  id: string;
  name: string;
}
interface ZeplinSection {
  id: string;
  name: string;
}
interface ZeplinScreen {
  id: string;
  name: string;
  number_of_versions?: number;
  section?: { id: string } | null;
  variant?: { value: string; group: { id: string; name: string } } | null;
}
interface ZeplinLayer {
  id: string;
  source_id?: string;
  /** text, shape or group. */
  type: string;
  name?: string;
  content?: string;
  rect?: { width: number; height: number };
  text_styles?: { style?: { font_size?: number; line_height?: number } }[];
  layers?: ZeplinLayer[];
}
interface ZeplinVersion {
  id: string;
  created?: number;
  layers: ZeplinLayer[];
}

function apiUrl(ctx: Ctx, path: string, query: Record<string, string> = {}): string {
  const url = new URL(ctx.settings.api_url.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** Zeplin's error body is `{message, detail?, code?}`: both sentences, when there are two. */
function zeplinMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; detail?: unknown };
    if (typeof body.message === 'string') return typeof body.detail === 'string' && body.detail !== '' ? `${body.message} (${body.detail})`.slice(0, 300) : body.message.slice(0, 300);
  } catch {
    // Not Zeplin's envelope (a proxy's page): the generic reading below.
  }
  return vendorMessage(text);
}

const WORDING = { vendor: 'Zeplin', read: zeplinMessage, credentials: "the connection's token (a personal access token of a member of the projects)" };

/**
 * Zeplin allows 200 requests a minute per user and counts down in `Zeplin-RateLimit-Remaining`; when it reaches 0,
 * the next request waits for `Zeplin-RateLimit-Reset` (epoch milliseconds) instead of spending a 429.
 */
async function pace(ctx: Ctx, response: Response): Promise<void> {
  if (response.headers.get('zeplin-ratelimit-remaining') !== '0') return;
  const reset = Number(response.headers.get('zeplin-ratelimit-reset'));
  if (!Number.isFinite(reset)) return;
  const wait = Math.min(MAX_PACING_MS, reset - Date.now());
  if (wait > 0) await abortableSleep(wait, ctx.signal);
}

/**
 * The body of a 2xx answer as JSON, read no further than `maxBytes`; undefined for a 404 when `missingOk`; any other
 * answer is the matching ConnectorError.
 */
async function fetchJson<T>(ctx: Ctx, url: string, what: string, options: { maxBytes?: number; missingOk?: boolean } = {}): Promise<T | undefined> {
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  const response = await ctx.http.request(url, { headers: { authorization: `Bearer ${ctx.secrets.token}` } });
  if (response.status === 404 && options.missingOk) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) throw await failure(response, what, WORDING);
  await pace(ctx, response);
  return readJson<T>(response, what, { maxBytes });
}

/** The JSON of a 2xx answer; any other answer is the matching ConnectorError. */
async function getJson<T>(ctx: Ctx, url: string, what: string): Promise<T> {
  return (await fetchJson<T>(ctx, url, what)) as T;
}

/** Every item of a paginated collection (limit/offset), stopping at MAX_PAGES pages with a clear error. */
async function allPages<T>(ctx: Ctx, path: string, what: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const batch = await getJson<T[]>(ctx, apiUrl(ctx, path, { limit: String(PAGE), offset: String(page * PAGE) }), what);
    if (!Array.isArray(batch)) throw new ConnectorError('unavailable', `${what}: Zeplin answered something other than a list.`);
    items.push(...batch);
    if (batch.length < PAGE) return items;
  }
  throw new ConnectorError('config', `${what}: more than ${MAX_PAGES * PAGE} items, more than the connector reads. Split the project, or archive screens it no longer needs.`);
}

/**
 * What a text layer's box says about a translation's length, as a note (design-hints.ts). Zeplin gives the box as
 * exported, not whether it grows with its text, so its growth is `unknown`; the line height is the first text style's
 * that has one.
 */
function layerBoxHint(layer: ZeplinLayer, charsPerPx: number): string | undefined {
  const box = layer.rect;
  if (!box) return undefined;
  const lineHeightPx = layer.text_styles?.find((t) => t.style?.line_height)?.style?.line_height;
  return textBoxHint({ width: box.width, height: box.height, lineHeightPx, growth: 'unknown' }, charsPerPx);
}

interface Found {
  layer: ZeplinLayer;
  group: string | undefined;
}

/** Every non-empty text layer under `layers`, with the innermost group it sits in. */
function collectText(layers: readonly ZeplinLayer[], group: string | undefined, depth: number, into: Found[]): void {
  if (depth > MAX_DEPTH) return;
  for (const layer of layers) {
    if (layer.type === 'text') {
      if ((layer.content ?? '').trim() !== '') into.push({ layer, group });
      continue;
    }
    if (layer.layers?.length) collectText(layer.layers, layer.type === 'group' && layer.name ? layer.name : group, depth + 1, into);
  }
}

function screenContext(screen: ZeplinScreen, sections: ReadonlyMap<string, string>): string {
  const section = screen.section ? sections.get(screen.section.id) : undefined;
  const variant = screen.variant ? ` (variant "${screen.variant.value}" of "${screen.variant.group.name}")` : '';
  return `${section ? `Section "${section}" › ` : ''}screen "${screen.name}"${variant}`;
}

/**
 * The strings of one screen version. A layer is keyed by the screen and the layer's id in the design tool
 * (`source_id`), which a re-export keeps; Zeplin's own layer `id`, new with every version, is only the fallback for a
 * layer without a source id.
 *
 * Two instances of one symbol on a screen give their text layers the same source id (the master's). The second and
 * later ones are keyed `<screen>/<source id>#<n>`, n their occurrence on the screen in layer order, and the first keeps
 * the plain key. Chaining the ancestors' source ids instead would survive reordering the instances, but it re-keys a
 * layer whenever it is grouped or ungrouped, and two copies nested in one instance share the whole chain, so it would
 * still need a counter; the occurrence changes only when an instance is added, removed or moved before another.
 */
function stringsOfScreen(screen: ZeplinScreen, version: ZeplinVersion, sections: ReadonlyMap<string, string>, charsPerPx: number): RemoteString[] {
  const found: Found[] = [];
  collectText(version.layers ?? [], undefined, 0, found);
  const where = screenContext(screen, sections);
  const occurrences = new Map<string, number>();
  const seen = new Set<string>();
  const strings: RemoteString[] = [];
  for (const { layer, group } of found) {
    const base = `${screen.id}/${layer.source_id ?? layer.id}`;
    const occurrence = (occurrences.get(base) ?? 0) + 1;
    occurrences.set(base, occurrence);
    const key = occurrence === 1 ? base : `${base}#${occurrence}`;
    // Only a design tool's own id ending in `#<n>` could collide; its layer is skipped rather than share a key.
    if (seen.has(key)) continue;
    seen.add(key);
    const source = layer.content!;
    const name = layer.name?.trim() ?? '';
    // Design tools name a new text layer after its text; only a name someone gave it says something more.
    const named = name !== '' && name !== source.trim() ? `Layer "${name}".` : undefined;
    const notes = [named, layerBoxHint(layer, charsPerPx)].filter((note) => note !== undefined).join(' ');
    strings.push({
      key,
      source,
      context: `${where}${group ? ` › group "${group}"` : ''} › layer "${name || layer.id}"`,
      ...(notes ? { notes } : {}),
    });
  }
  return strings;
}

async function listProject(ctx: Ctx, projectId: string): Promise<{ unit: StringUnit; note: string }> {
  const project = await getJson<ZeplinProject>(ctx, apiUrl(ctx, `/v1/projects/${projectId}`), `Reading Zeplin project '${projectId}' (setting project_ids)`);
  const sections = new Map((await allPages<ZeplinSection>(ctx, `/v1/projects/${projectId}/screen_sections`, `Reading the sections of Zeplin project '${project.name}'`)).map((s) => [s.id, s.name]));
  const screens = await allPages<ZeplinScreen>(ctx, `/v1/projects/${projectId}/screens`, `Reading the screens of Zeplin project '${project.name}'`);
  const strings: RemoteString[] = [];
  let gone = 0;
  for (const screen of screens) {
    if (screen.number_of_versions === 0) continue;
    const what = `Reading the latest version of screen '${screen.name}' (${screen.id}) of Zeplin project '${project.name}'`;
    // A 404: the screen was deleted since the list was read, so it is simply not there any more.
    const version = await fetchJson<ZeplinVersion>(ctx, apiUrl(ctx, `/v1/projects/${projectId}/screens/${screen.id}/versions/latest`), what, { maxBytes: MAX_VERSION_BYTES, missingOk: true });
    if (!version) {
      gone++;
      continue;
    }
    strings.push(...stringsOfScreen(screen, version, sections, ctx.settings.chars_per_px));
  }
  return {
    unit: { kind: 'strings', path: projectId, strings },
    note: `'${project.name}' (${projectId}): ${strings.length} text layers on ${screens.length} screens${gone > 0 ? `, ${gone} deleted while reading` : ''}`,
  };
}

async function list(ctx: Ctx): Promise<Listing> {
  const units: StringUnit[] = [];
  const notes: string[] = [];
  for (const projectId of ctx.settings.project_ids) {
    const { unit, note } = await listProject(ctx, projectId);
    units.push(unit);
    notes.push(note);
  }
  return { units, note: `Zeplin, import only (the API cannot change a layer's text): ${notes.join('; ')}.` };
}

/**
 * Zeplin signs each delivery: `Zeplin-Signature` is the hex HMAC-SHA256, under the webhook's secret, of
 * `<Zeplin-Delivery-Timestamp>.<body>`; a delivery older than five minutes is refused, as Zeplin advises, since the
 * timestamp is signed. A new screen version in one of the connection's projects starts a sync; a `ping` (sent when a
 * webhook is created, and unsigned by some Zeplin versions) and every other event are acknowledged without one.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, current: ZeplinSettings): WebhookVerdict {
  let event: { event?: unknown; action?: unknown; context?: { project?: { id?: unknown } } };
  const body = Buffer.from(request.body).toString('utf8');
  try {
    event = JSON.parse(body) as typeof event;
  } catch {
    return { verified: false, sync: false, reason: 'the body is not JSON' };
  }
  if (typeof event !== 'object' || event === null) return { verified: false, sync: false, reason: 'the body is not a Zeplin event' };
  const signature = request.headers.get('zeplin-signature');
  const timestamp = request.headers.get('zeplin-delivery-timestamp');
  if (signature === null && event.event === 'ping') return { verified: true, sync: false, reason: 'ping acknowledged' };
  if (signature === null || timestamp === null) return { verified: false, sync: false, reason: 'no Zeplin-Signature or Zeplin-Delivery-Timestamp header' };
  const expected = createHmac('sha256', webhookSecret).update(`${timestamp}.${body}`).digest('hex');
  if (!sameSecret(signature.trim().toLowerCase(), expected)) return { verified: false, sync: false, reason: 'the signature does not match the webhook secret' };
  // Milliseconds, as Zeplin's other timestamps in headers are; seconds are read too (the docs say "a UNIX timestamp").
  const sent = Number(timestamp) > 1e12 ? Number(timestamp) : Number(timestamp) * 1000;
  if (!Number.isFinite(sent) || Math.abs(Date.now() - sent) > DELIVERY_WINDOW_MS) return { verified: false, sync: false, reason: `the delivery timestamp ${timestamp} is more than five minutes away from now` };
  if (event.event !== 'project.screen.version' || event.action !== 'created') return { verified: true, sync: false, reason: `event '${String(event.event)}' (${String(event.action)}) does not change a screen's text` };
  const projectId = event.context?.project?.id;
  if (typeof projectId !== 'string' || !current.project_ids.includes(projectId)) return { verified: true, sync: false, reason: `event for project '${String(projectId)}', not one of the connection's projects` };
  return { verified: true, sync: true };
}

export const zeplin: Connector<ZeplinSettings, ZeplinSecrets> = {
  id: 'zeplin',
  name: 'Zeplin',
  category: 'design',
  direction: 'import_only',
  summary: "Zeplin projects: the text layers of every screen's latest version are imported for translation, with the screen, section, group and layer names as context and the layer's box as a length hint in the notes; import only.",
  settings,
  secrets,
  webhooks: 'Zeplin webhooks (project.screen.version created): Zeplin-Signature, the hex HMAC-SHA256 of `<Zeplin-Delivery-Timestamp>.<body>` with the webhook secret, within five minutes',
  list,
  verifyWebhook,
};
