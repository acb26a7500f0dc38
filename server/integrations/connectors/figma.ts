/**
 * Figma as an import-only design connector (REST API): every visible, non-empty TEXT layer of the configured files
 * is a source string, one unit per file, keyed by the layer's node id (stable while the layer exists, whatever it is
 * renamed or moved to); its frame and layer names are the context, and a fixed-width layer's box is a length hint in
 * the notes. Figma's REST API cannot change a layer's text (only plugins can), so nothing is written back: translations
 * stay in Parlance and reach the design through a plugin or an export.
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { charsPerPxSetting, textBoxHint, type BoxGrowth } from '../design-hints.js';
import { sameSecret } from '../same-secret.js';

const settings = z
  .object({
    api_url: z.string().url().default('https://api.figma.com').openapi({ description: 'Figma REST API base URL. Default `https://api.figma.com`.' }),
    file_keys: z
      .array(z.string().regex(/^[A-Za-z0-9]{10,64}$/, 'a Figma file key: the part after /file/ or /design/ in the file URL'))
      .min(1)
      .openapi({ description: 'The files to translate, by key: `https://www.figma.com/design/<key>/<title>`.' }),
    pages: z.array(z.string().min(1)).default([]).openapi({ description: 'Page names to read; empty (the default) means every page.' }),
    chars_per_px: charsPerPxSetting,
  })
  .strict();

const secrets = z
  .object({
    token: z.string().min(1).optional().openapi({ description: 'A personal access token (Settings › Security › Personal access tokens) with the scope file_content:read; sent as X-Figma-Token.' }),
    oauth_token: z.string().min(1).optional().openapi({ description: 'Instead of `token`: an OAuth access token with file_content:read, sent as a Bearer token.' }),
  })
  .strict()
  .refine((s) => s.token !== undefined || s.oauth_token !== undefined, { message: 'Give `token` (a personal access token) or `oauth_token`.' });

export type FigmaSettings = z.infer<typeof settings>;
export type FigmaSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<FigmaSettings, FigmaSecrets>;

/** The events after which a file's text may differ. */
const SOURCE_EVENTS = new Set(['FILE_UPDATE', 'FILE_VERSION_UPDATE']);

interface FigmaNode {
  id: string;
  name: string;
  type: string;
  visible?: boolean;
  characters?: string;
  absoluteBoundingBox?: { x: number; y: number; width: number; height: number } | null;
  style?: { textAutoResize?: string; lineHeightPx?: number; fontSize?: number };
  children?: FigmaNode[];
}
interface FigmaFile {
  name: string;
  lastModified?: string;
  version?: string;
  document: FigmaNode;
}
interface FigmaNodes {
  name: string;
  lastModified?: string;
  version?: string;
  nodes: Record<string, { document: FigmaNode } | null>;
}

function authHeaders(ctx: Ctx): Record<string, string> {
  if (ctx.secrets.token) return { 'x-figma-token': ctx.secrets.token };
  return { authorization: `Bearer ${ctx.secrets.oauth_token}` };
}

function apiUrl(ctx: Ctx, path: string, query: Record<string, string> = {}): string {
  const url = new URL(ctx.settings.api_url.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * The pages to read of one file. Without a `pages` setting, the whole file in one request; with one, the page list
 * first (`depth=1`) and then only the named pages (`/nodes?ids=`), which keeps large files' answers small.
 */
async function readPages(ctx: Ctx, key: string): Promise<{ file: { name: string; version?: string; lastModified?: string }; pages: FigmaNode[] }> {
  const what = `Reading Figma file '${key}' (setting file_keys)`;
  if (ctx.settings.pages.length === 0) {
    const file = await ctx.http.json<FigmaFile>(apiUrl(ctx, `/v1/files/${encodeURIComponent(key)}`), { what, headers: authHeaders(ctx) });
    return { file, pages: file.document.children ?? [] };
  }
  const outline = await ctx.http.json<FigmaFile>(apiUrl(ctx, `/v1/files/${encodeURIComponent(key)}`, { depth: '1' }), { what, headers: authHeaders(ctx) });
  const all = outline.document.children ?? [];
  const ids = ctx.settings.pages.map((name) => {
    const page = all.find((p) => p.name === name);
    if (!page) throw new ConnectorError('config', `Figma file '${key}' (${outline.name}) has no page '${name}' (setting pages). Its pages: ${all.map((p) => `'${p.name}'`).join(', ') || 'none'}.`);
    return page.id;
  });
  const found = await ctx.http.json<FigmaNodes>(apiUrl(ctx, `/v1/files/${encodeURIComponent(key)}/nodes`, { ids: ids.join(',') }), { what: `Reading pages ${ids.join(', ')} of Figma file '${key}'`, headers: authHeaders(ctx) });
  const pages = ids.map((id) => found.nodes[id]?.document).filter((page): page is FigmaNode => page !== undefined && page !== null);
  return { file: found, pages };
}

const GROWTH: Record<string, BoxGrowth> = { NONE: 'fixed', TRUNCATE: 'truncate', HEIGHT: 'grows_down', WIDTH_AND_HEIGHT: 'grows' };

/** A text layer's box as a length hint (design-hints.ts); Figma's default for a layer without `textAutoResize` is a fixed box. */
function layerWidthHint(node: FigmaNode, charsPerPx: number): string | undefined {
  const box = node.absoluteBoundingBox;
  if (!box) return undefined;
  return textBoxHint({ width: box.width, height: box.height, lineHeightPx: node.style?.lineHeightPx, growth: GROWTH[node.style?.textAutoResize ?? 'NONE'] ?? 'fixed' }, charsPerPx);
}

/** Every visible TEXT layer under `node`, with the top-level frame it sits in (hidden layers hide their children too). */
function collectText(node: FigmaNode, frame: string | undefined, into: { node: FigmaNode; frame: string | undefined }[]): void {
  if (node.visible === false) return;
  if (node.type === 'TEXT') {
    into.push({ node, frame });
    return;
  }
  for (const child of node.children ?? []) collectText(child, frame, into);
}

function stringsOfPage(page: FigmaNode, charsPerPx: number): { strings: RemoteString[]; hidden: number } {
  const found: { node: FigmaNode; frame: string | undefined }[] = [];
  let hidden = 0;
  for (const top of page.children ?? []) {
    if (top.visible === false) {
      hidden++;
      continue;
    }
    collectText(top, top.type === 'TEXT' ? undefined : top.name, found);
  }
  const strings: RemoteString[] = [];
  for (const { node, frame } of found) {
    const source = node.characters ?? '';
    if (source.trim() === '') continue;
    // Figma names a new text layer after its text; only a name someone gave it says something more.
    const named = node.name.trim() !== '' && node.name !== source ? `Layer "${node.name}".` : undefined;
    const notes = [named, layerWidthHint(node, charsPerPx)].filter((note) => note !== undefined).join(' ');
    strings.push({
      key: node.id,
      source,
      context: `Page "${page.name}"${frame ? ` › frame "${frame}"` : ''} › layer "${node.name}"`,
      ...(notes ? { notes } : {}),
    });
  }
  return { strings, hidden };
}

async function list(ctx: Ctx): Promise<Listing> {
  const units: StringUnit[] = [];
  const notes: string[] = [];
  for (const key of ctx.settings.file_keys) {
    const { file, pages } = await readPages(ctx, key);
    const strings: RemoteString[] = [];
    let hidden = 0;
    for (const page of pages) {
      const got = stringsOfPage(page, ctx.settings.chars_per_px);
      strings.push(...got.strings);
      hidden += got.hidden;
    }
    units.push({ kind: 'strings', path: key, strings });
    notes.push(`'${file.name}' (${key}, version ${file.version ?? '?'}): ${strings.length} text layers on ${pages.length} pages${hidden > 0 ? `, ${hidden} hidden frames skipped` : ''}`);
  }
  return { units, note: `Figma, import only (the REST API cannot write text layers): ${notes.join('; ')}.` };
}

/**
 * Figma's webhooks (v2) carry no signature: the `passcode` chosen when the webhook was created comes back in the body.
 * It is compared in constant time with the connection's webhook secret; a genuine event for a file this connection
 * does not read (a team webhook covers every file of the team) is acknowledged without a sync. The body's `timestamp`
 * is not checked for age: nothing signs it (whoever knows the passcode can write any time), so an age check would stop
 * no forger, only Figma's own late redeliveries; a replayed event costs one sync that finds nothing new.
 */
function verifyWebhook(request: WebhookRequest, webhookSecret: string, current: FigmaSettings): WebhookVerdict {
  let event: { event_type?: unknown; passcode?: unknown; file_key?: unknown };
  try {
    event = JSON.parse(Buffer.from(request.body).toString('utf8')) as typeof event;
  } catch {
    return { verified: false, sync: false, reason: 'the body is not JSON' };
  }
  if (typeof event !== 'object' || event === null || typeof event.passcode !== 'string') return { verified: false, sync: false, reason: 'no passcode in the body' };
  if (!sameSecret(event.passcode, webhookSecret)) return { verified: false, sync: false, reason: 'the passcode does not match the webhook secret' };
  const type = String(event.event_type);
  if (!SOURCE_EVENTS.has(type)) return { verified: true, sync: false, reason: `event '${type}' does not change a file's text` };
  if (typeof event.file_key !== 'string' || !current.file_keys.includes(event.file_key)) {
    return { verified: true, sync: false, reason: `event for file '${String(event.file_key)}', not one of the connection's files` };
  }
  return { verified: true, sync: true };
}

export const figma: Connector<FigmaSettings, FigmaSecrets> = {
  id: 'figma',
  name: 'Figma',
  category: 'design',
  direction: 'import_only',
  summary: "Figma files: the text of every visible text layer is imported for translation, with its frame and layer names as context and a fixed-width box's size as a length hint in the notes; import only.",
  settings,
  secrets,
  webhooks: "Figma webhooks v2 (FILE_UPDATE, FILE_VERSION_UPDATE): the body's passcode must equal the connection's webhook secret",
  list,
  verifyWebhook,
};
