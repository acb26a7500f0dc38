/**
 * Penpot as an import-only design connector: every visible, non-empty text shape of a Penpot file is a source string,
 * one unit per file, keyed by its page's id and the shape's id; its page, board and layer names are the context, and
 * a fixed-width box is a length hint in the notes. The file comes from one of three places: Penpot's RPC API (`get-file`, and
 * `get-project-files` for a whole project) with an access token, an exported `.penpot` file uploaded to the
 * connection, or that export fetched from `file_url`. Penpot's API changes shapes only through the editor's change
 * protocol (`update-file` with the file's revision and a session), so nothing is written back.
 */
import { fetchFileUrl } from '../file-url.js';
import { z } from '@hono/zod-openapi';
import { readZip, type ZipEntries } from '../../../src/core/read-zip.js';
import { ArchiveLimitError } from '../../../src/core/archive-limits.js';
import type { Connector, ConnectorContext, Listing, RemoteString, StringUnit } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson, type FailureWording } from '../connector-http.js';
import { charsPerPxSetting, textBoxHint, type BoxGrowth } from '../design-hints.js';

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'a Penpot id: a UUID such as 3f0c5a1e-9d4b-8041-8006-1b2c3d4e5f60');

const settings = z
  .object({
    api_url: z.string().url().default('https://design.penpot.app').openapi({ description: 'Penpot instance base URL, for the API. Default `https://design.penpot.app`; a self-hosted instance its own address.' }),
    file_ids: z
      .array(uuid)
      .default([])
      .openapi({ description: 'Files to read through the API, by id: the `file-id=` of the workspace URL. Needs the secret `access_token`.' }),
    project_id: uuid.optional().openapi({ description: 'Instead of (or besides) `file_ids`: every file of this project is read through the API (the `project-id=` of a workspace URL). Needs `access_token`.' }),
    file_url: z
      .string()
      .url()
      .optional()
      .openapi({ description: 'Where to fetch an exported `.penpot` file (Penpot 2, binfile v3) on each sync, instead of the API or an uploaded file. The secret `file_token`, if given, is sent as a Bearer token.' }),
    chars_per_px: charsPerPxSetting,
  })
  .strict()
  .refine((s) => s.file_url === undefined || (s.file_ids.length === 0 && s.project_id === undefined), {
    message: 'Give `file_url` (an exported .penpot file) or `file_ids`/`project_id` (the API), not both.',
  });

const secrets = z
  .object({
    access_token: z.string().min(1).optional().openapi({ description: 'A Penpot access token (Your account › Access tokens), sent as `Authorization: Token …`; for `file_ids` and `project_id`.' }),
    file_token: z.string().min(1).optional().openapi({ description: 'For `file_url`: a token its server wants, sent as `Authorization: Bearer …`.' }),
  })
  .strict();

export type PenpotSettings = z.infer<typeof settings>;
export type PenpotSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<PenpotSettings, PenpotSecrets>;

/** The root frame every page's shapes hang from (uuid/zero in Penpot). */
const ROOT = '00000000-0000-0000-0000-000000000000';
/** The most an API answer or a fetched export may weigh: a file's whole data comes in one answer. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** A project's files read at most; past it the project is refused rather than read in part. */
const MAX_PROJECT_FILES = 200;
/** How deep boards and groups are followed; deeper shapes are left out and counted. */
const MAX_DEPTH = 100;
/**
 * An export holds one JSON entry per shape, so a large design has tens of thousands; only the manifest, the files and
 * their pages and shapes are inflated (media, thumbnails and fonts are skipped but still counted).
 */
const EXPORT_LIMITS = { maxInflatedBytes: 256 * 1024 * 1024, maxEntries: 250_000 } as const;
/** binfile v1 (Penpot 1.x exports): a header mark 1, then this magic number as a big-endian long. */
const V1_MAGIC = 800099563638710213n;

const WORDING: FailureWording = {
  vendor: 'Penpot',
  // Penpot's errors are `{type, code, hint}` (app.http.errors): the hint is the message, the code names the case.
  read(text) {
    try {
      const body = JSON.parse(text) as { code?: unknown; hint?: unknown };
      const parts = [body.hint, body.code].filter((p): p is string => typeof p === 'string' && p !== '');
      if (parts.length > 0) return parts.length === 2 ? `${parts[0]} (${parts[1]})` : parts[0]!;
    } catch {
      // Not JSON (a proxy's page): its text.
    }
    return text.trim().replace(/\s+/g, ' ').slice(0, 200);
  },
  credentials: "the connection's access_token (Your account › Access tokens; an expired token is refused too)",
  settings: 'the file_ids and project_id settings',
};

interface TextLeaf {
  text?: unknown;
  fontSize?: unknown;
  lineHeight?: unknown;
}
interface TextNode extends TextLeaf {
  type?: unknown;
  children?: unknown;
}
interface PenpotShape {
  id: string;
  name?: string;
  type?: string;
  hidden?: boolean;
  /** Children, for boards and groups, by id. */
  shapes?: string[];
  growType?: string;
  width?: number;
  height?: number;
  content?: TextNode | null;
}
interface PenpotPage {
  id: string;
  name: string;
  index: number;
  objects: Record<string, PenpotShape>;
}
interface PenpotFile {
  id: string;
  name: string;
  revn?: number;
  pages: PenpotPage[];
}

/** `get-file`'s answer (JSON keys camelCased by Penpot's JSON writer): the pages' order and each page's shapes. */
interface ApiFile {
  id: string;
  name: string;
  revn?: number;
  data?: { pages?: string[]; pagesIndex?: Record<string, { id: string; name: string; objects?: Record<string, PenpotShape> }> };
}

const asRecord = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
const children = (node: unknown): TextNode[] => {
  const list = asRecord(node)?.children;
  return Array.isArray(list) ? list.filter((c): c is TextNode => asRecord(c) !== undefined) : [];
};

/** A text shape's text as Penpot itself reads it (content->text): leaves joined, paragraphs on lines of their own. */
export function contentText(content: unknown): string {
  if (asRecord(content)?.type !== 'root') return '';
  const paragraphs: string[] = [];
  for (const set of children(content)) {
    for (const paragraph of children(set)) paragraphs.push(children(paragraph).map((leaf) => (typeof leaf.text === 'string' ? leaf.text : '')).join(''));
  }
  return paragraphs.join('\n');
}

/** The line height in pixels of a text's first run: its font size times its (unitless) line height. */
function lineHeightPx(content: unknown): number | undefined {
  const paragraph = children(children(content)[0])[0];
  const leaf = children(paragraph)[0];
  const size = Number(leaf?.fontSize ?? paragraph?.fontSize);
  const height = Number(leaf?.lineHeight ?? paragraph?.lineHeight ?? 1.2);
  return size > 0 && height > 0 ? size * height : undefined;
}

/** Penpot's growType as the box's growth; a shape without one (or with another) is a fixed box. */
const GROWTH: Record<string, BoxGrowth> = { fixed: 'fixed', 'auto-height': 'grows_down', 'auto-width': 'grows' };

/** A text shape's box as a length hint (design-hints.ts: a width in pixels is no character count, so no max_length). */
function shapeBoxHint(shape: PenpotShape, charsPerPx: number): string | undefined {
  if (typeof shape.width !== 'number') return undefined;
  const height = typeof shape.height === 'number' ? shape.height : undefined;
  return textBoxHint({ width: shape.width, height, lineHeightPx: lineHeightPx(shape.content), growth: GROWTH[shape.growType ?? 'fixed'] ?? 'fixed' }, charsPerPx);
}

interface Found {
  shape: PenpotShape;
  board: string | undefined;
}

/**
 * The visible text shapes of a page in layer order, walked from the root frame through each board's and group's
 * children: a hidden shape hides what it holds, and the top-level board a text sits in is its context.
 */
function textShapes(page: PenpotPage): { found: Found[]; hidden: number; tooDeep: number } {
  const found: Found[] = [];
  const seen = new Set<string>([ROOT]);
  let hidden = 0;
  let tooDeep = 0;
  const walk = (ids: unknown, board: string | undefined, depth: number): void => {
    if (!Array.isArray(ids)) return;
    for (const id of ids) {
      const shape = typeof id === 'string' && !seen.has(id) ? page.objects[id] : undefined;
      if (!shape) continue;
      seen.add(id as string);
      if (shape.hidden === true) {
        hidden++;
        continue;
      }
      if (shape.type === 'text') found.push({ shape, board });
      else if (depth >= MAX_DEPTH) tooDeep++;
      else walk(shape.shapes, board ?? (shape.type === 'frame' ? shape.name : undefined), depth + 1);
    }
  };
  walk(page.objects[ROOT]?.shapes, undefined, 0);
  return { found, hidden, tooDeep };
}

function unitOf(file: PenpotFile, charsPerPx: number): { unit: StringUnit; note: string } {
  const strings: RemoteString[] = [];
  let hidden = 0;
  let tooDeep = 0;
  for (const page of [...file.pages].sort((a, b) => a.index - b.index)) {
    const got = textShapes(page);
    hidden += got.hidden;
    tooDeep += got.tooDeep;
    for (const { shape, board } of got.found) {
      const source = contentText(shape.content);
      if (source.trim() === '') continue;
      const name = shape.name ?? '';
      // Penpot names a new text shape after its text; only a name someone gave it says something more.
      const named = name.trim() !== '' && name !== source ? `Layer "${name}".` : undefined;
      const notes = [named, shapeBoxHint(shape, charsPerPx)].filter((note) => note !== undefined).join(' ');
      strings.push({
        // Duplicating a page in Penpot keeps its shapes' ids, so a shape id is unique only within its page.
        key: `${page.id}/${shape.id}`,
        source,
        context: `Page "${page.name}"${board ? ` › board "${board}"` : ''} › layer "${name}"`,
        ...(notes ? { notes } : {}),
      });
    }
  }
  const skipped = [hidden > 0 ? `${hidden} hidden layers skipped` : undefined, tooDeep > 0 ? `${tooDeep} boards nested deeper than ${MAX_DEPTH} levels left out` : undefined].filter(Boolean);
  const note = `'${file.name}' (${file.id}${file.revn === undefined ? '' : `, revision ${file.revn}`}): ${strings.length} text layers on ${file.pages.length} pages${skipped.length > 0 ? `, ${skipped.join(', ')}` : ''}`;
  return { unit: { kind: 'strings', path: file.id, strings }, note };
}

/** One RPC command's JSON answer. Without `Accept: application/json` Penpot answers Transit, which this does not read. */
async function rpc<T>(ctx: Ctx, command: string, params: Record<string, string>, what: string): Promise<T> {
  const url = `${ctx.settings.api_url.replace(/\/+$/, '')}/api/rpc/command/${command}`;
  const response = await ctx.http.request(url, {
    method: 'POST',
    headers: { authorization: `Token ${ctx.secrets.access_token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  if (!response.ok) throw await failure(response, what, WORDING);
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) {
    await response.body?.cancel();
    throw new ConnectorError('config', `${what}: ${url} answered ${response.headers.get('content-type') ?? 'no content type'}, not Penpot's JSON: check api_url (the instance's base URL, such as https://design.penpot.app).`);
  }
  return readJson<T>(response, what, { maxBytes: MAX_ANSWER_BYTES, required: true });
}

async function apiFile(ctx: Ctx, id: string, setting: string): Promise<PenpotFile> {
  const file = await rpc<ApiFile>(ctx, 'get-file', { id }, `Reading Penpot file '${id}' (${setting})`);
  const index = file.data?.pagesIndex ?? {};
  const pages = (file.data?.pages ?? []).flatMap((pageId, position) => {
    const page = index[pageId];
    return page ? [{ id: page.id, name: page.name, index: position, objects: page.objects ?? {} }] : [];
  });
  return { id: file.id, name: file.name, ...(file.revn === undefined ? {} : { revn: file.revn }), pages };
}

async function apiFiles(ctx: Ctx): Promise<PenpotFile[]> {
  if (!ctx.secrets.access_token) {
    throw new ConnectorError('config', 'Reading Penpot files through the API (settings file_ids, project_id) needs the secret access_token: create one in Penpot under Your account › Access tokens and PATCH the connection with it.');
  }
  const ids = ctx.settings.file_ids.map((id) => ({ id, setting: 'setting file_ids' }));
  if (ctx.settings.project_id) {
    const project = ctx.settings.project_id;
    const files = await rpc<{ id: string }[]>(ctx, 'get-project-files', { projectId: project }, `Listing the files of Penpot project '${project}' (setting project_id)`);
    if (files.length > MAX_PROJECT_FILES) {
      throw new ConnectorError('config', `Penpot project '${project}' (setting project_id) has ${files.length} files; at most ${MAX_PROJECT_FILES} are read. Name the files to translate in file_ids instead.`);
    }
    for (const file of files) if (!ids.some((known) => known.id === file.id)) ids.push({ id: file.id, setting: `project ${project}` });
  }
  const read: PenpotFile[] = [];
  for (const { id, setting } of ids) read.push(await apiFile(ctx, id, setting));
  return read;
}

function parseEntry<T>(entries: ZipEntries, name: string, origin: string): T {
  const bytes = entries[name];
  if (!bytes) throw new ConnectorError('config', `${origin} has no '${name}': the export is damaged or not from Penpot. Export the file again (Penpot 2: menu › Export .penpot).`);
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as T;
  } catch {
    throw new ConnectorError('config', `${origin}: '${name}' is not JSON. Export the file again from Penpot 2.`);
  }
}

/**
 * The files of an exported `.penpot` (binfile v3, app.binfile.v3): a zip of `manifest.json`, `files/<id>.json`,
 * `files/<id>/pages/<page>.json` and one `files/<id>/pages/<page>/<shape>.json` per shape. A Penpot 1 export (binfile
 * v1, a binary stream) is refused with what to do.
 */
export function readExport(bytes: Uint8Array, origin: string): PenpotFile[] {
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  if (!isZip) {
    const v1 = bytes.length >= 17 && bytes[0] === 1 && Buffer.from(bytes.buffer, bytes.byteOffset + 1, 8).readBigInt64BE() === V1_MAGIC;
    throw new ConnectorError(
      'config',
      v1
        ? `${origin} is a Penpot 1 export (binfile v1), which this connector cannot read. Open the file in Penpot 2 and export it again (menu › Export .penpot), then upload that.`
        : `${origin} is not a Penpot export (a .penpot file is a zip from Penpot 2's menu › Export .penpot).`,
    );
  }
  let entries: ZipEntries;
  try {
    entries = readZip(bytes, { budget: EXPORT_LIMITS, filter: (name) => name === 'manifest.json' || /^files\/[^/]+(\.json|\/pages\/[^/]+\.json|\/pages\/[^/]+\/[^/]+\.json)$/.test(name) });
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw new ConnectorError('config', `${origin}: ${error.message}.`);
    throw new ConnectorError('config', `${origin} is not a readable zip (${error instanceof Error ? error.message : String(error)}). Export the file again from Penpot 2.`);
  }
  const manifest = parseEntry<{ type?: unknown; files?: unknown }>(entries, 'manifest.json', origin);
  if (manifest.type !== 'penpot/export-files' || !Array.isArray(manifest.files)) {
    throw new ConnectorError('config', `${origin}: manifest.json is of type '${String(manifest.type)}', not 'penpot/export-files'. Export the file again from Penpot 2.`);
  }
  const byFile = new Map<string, { pages: Map<string, PenpotPage> }>();
  const pageOf = (fileId: string, pageId: string): PenpotPage | undefined => byFile.get(fileId)?.pages.get(pageId);
  for (const listed of manifest.files as { id?: unknown }[]) if (typeof listed.id === 'string') byFile.set(listed.id, { pages: new Map() });
  const names = Object.keys(entries);
  for (const name of names) {
    const m = /^files\/([^/]+)\/pages\/([^/]+)\.json$/.exec(name);
    if (!m || !byFile.has(m[1]!)) continue;
    const page = parseEntry<{ id?: unknown; name?: unknown; index?: unknown }>(entries, name, origin);
    byFile.get(m[1]!)!.pages.set(m[2]!, { id: m[2]!, name: typeof page.name === 'string' ? page.name : m[2]!, index: typeof page.index === 'number' ? page.index : 0, objects: {} });
  }
  for (const name of names) {
    const m = /^files\/([^/]+)\/pages\/([^/]+)\/([^/]+)\.json$/.exec(name);
    const page = m ? pageOf(m[1]!, m[2]!) : undefined;
    if (!page) continue;
    const shape = parseEntry<PenpotShape>(entries, name, origin);
    // Penpot's importer keeps a shape only when its entry's name is its id; so does this.
    if (shape.id === m![3]) page.objects[shape.id] = shape;
  }
  return [...byFile.entries()].map(([id, { pages }]) => {
    const file = parseEntry<{ name?: unknown; revn?: unknown }>(entries, `files/${id}.json`, origin);
    return { id, name: typeof file.name === 'string' ? file.name : id, ...(typeof file.revn === 'number' ? { revn: file.revn } : {}), pages: [...pages.values()] };
  });
}

const fetchExport = (ctx: Ctx, url: string) => fetchFileUrl(ctx.http, url, ctx.secrets.file_token, { what: `Fetching the Penpot export at file_url '${url}'`, maxBytes: MAX_ANSWER_BYTES });

async function list(ctx: Ctx): Promise<Listing> {
  let files: PenpotFile[];
  let from: string;
  if (ctx.settings.file_url) {
    files = readExport(await fetchExport(ctx, ctx.settings.file_url), `The export at file_url '${ctx.settings.file_url}'`);
    from = `the export at file_url`;
  } else if (ctx.settings.file_ids.length > 0 || ctx.settings.project_id) {
    files = await apiFiles(ctx);
    from = `the API at ${ctx.settings.api_url}`;
  } else if (ctx.upload) {
    files = readExport(ctx.upload.content, `The uploaded file '${ctx.upload.name}'`);
    from = `the uploaded file '${ctx.upload.name}'`;
  } else {
    throw new ConnectorError(
      'config',
      `No Penpot file to read: upload an export (PUT /v1/integrations/penpot/${ctx.connectionId}/file?name=<name>.penpot with the .penpot file as the body), or set file_url (where to fetch the export) or file_ids/project_id with the secret access_token (the API).`,
    );
  }
  const read = files.map((file) => unitOf(file, ctx.settings.chars_per_px));
  // The settings name the source when they name one: an upload made before they did is not read.
  const ignored = ctx.upload && !from.startsWith('the uploaded') ? ` The uploaded file '${ctx.upload.name}' is not read while file_url, file_ids or project_id is set.` : '';
  return { units: read.map((r) => r.unit), note: `Penpot, import only, from ${from}: ${read.map((r) => r.note).join('; ') || 'no files'}.${ignored}` };
}

export const penpot: Connector<PenpotSettings, PenpotSecrets> = {
  id: 'penpot',
  name: 'Penpot',
  category: 'design',
  direction: 'import_only',
  summary: "Penpot files, through the API or an exported .penpot file: the text of every visible text layer is imported for translation, with its page, board and layer names as context and a fixed-width box's size as a length hint in the notes; writes nothing back.",
  settings,
  secrets,
  upload: { description: 'a Penpot export (.penpot)', extensions: ['.penpot'] },
  list,
};
