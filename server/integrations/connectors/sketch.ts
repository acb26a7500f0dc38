/**
 * Sketch as an import-only design connector: a `.sketch` document, uploaded to the connection or fetched from
 * `file_url`, is read as the zip of JSON it is (document.json, meta.json, pages/<id>.json); every visible, non-empty
 * text layer is a source string keyed by its `do_objectID`, and every text override of a symbol instance a string of
 * its own. The page, artboard (or symbol source) and group names are the context, and a fixed-width box is a length
 * hint in the notes. A file cannot be written back to where it came from, so nothing is.
 */
import { fetchFileUrl } from '../file-url.js';
import { z } from '@hono/zod-openapi';
import { ArchiveLimitError } from '../../../src/core/archive-limits.js';
import { readZip, type ZipEntries } from '../../../src/core/read-zip.js';
import type { Connector, ConnectorContext, Listing, RemoteString } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { charsPerPxSetting, textBoxHint, type BoxGrowth } from '../design-hints.js';

const settings = z
  .object({
    file_url: z
      .string()
      .url()
      .optional()
      .openapi({ description: 'Where to fetch the `.sketch` document on each sync, instead of a file uploaded to the connection. The secret `file_token`, if given, is sent as a Bearer token.' }),
    path: z
      .string()
      .regex(/^(?!\.{1,2}(\/|$))(?!.*\/\.{1,2}(\/|$))[\w.-]+(\/[\w.-]+)*$/, 'a path of letters, digits, `_`, `.` and `-`, in `/`-separated parts other than `.` and `..`')
      .default('design')
      .openapi({ description: "The path the document's strings are kept under in Parlance (after `integrations/<connection id>/`). Default `design`. It does not follow the file's name, so a re-upload of the design under another name keeps its keys." }),
    pages: z.array(z.string().min(1)).default([]).openapi({ description: 'Page names to read; empty (the default) means every page.' }),
    chars_per_px: charsPerPxSetting,
  })
  .strict();

const secrets = z
  .object({
    file_token: z.string().min(1).optional().openapi({ description: 'For `file_url`: a token its server wants, sent as `Authorization: Bearer …`.' }),
  })
  .strict();

export type SketchSettings = z.infer<typeof settings>;
export type SketchSecrets = z.infer<typeof secrets>;
type Ctx = ConnectorContext<SketchSettings, SketchSecrets>;

/** The most a document fetched from file_url may weigh: its bitmaps come along, though only its JSON is read. */
const MAX_FETCH_BYTES = 256 * 1024 * 1024;
/**
 * Only document.json, meta.json and the pages are inflated (bitmaps, previews and fonts are skipped, still counted);
 * these bound them all together and the entries of the archive.
 */
const DOCUMENT_LIMITS = { maxInflatedBytes: 256 * 1024 * 1024, maxEntries: 100_000 } as const;
/** How deep groups are followed; deeper layers are left out and counted. */
const MAX_DEPTH = 100;
/** How deep nested symbols are followed to find an override's text layer (`id/id/…_stringValue`). */
const MAX_OVERRIDE_DEPTH = 20;
const STRING_OVERRIDE = '_stringValue';
/** A `.sketch` from before Sketch 43 is an SQLite database, not a zip. */
const SQLITE_MAGIC = 'SQLite format 3\0';

interface Rect {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}
interface StringAttribute {
  attributes?: { MSAttributedStringFontAttribute?: { attributes?: { size?: number } }; paragraphStyle?: { maximumLineHeight?: number } };
}
interface OverrideValue {
  overrideName?: string;
  value?: unknown;
}
interface SketchLayer {
  _class?: string;
  do_objectID?: string;
  name?: string;
  isVisible?: boolean;
  frame?: Rect;
  layers?: SketchLayer[];
  attributedString?: { string?: unknown; attributes?: StringAttribute[] };
  textBehaviour?: number;
  symbolID?: string;
  overrideValues?: OverrideValue[];
}
interface SketchDocument {
  do_objectID?: string;
  pages?: { _ref?: string }[];
  foreignSymbols?: { symbolMaster?: SketchLayer; sourceLibraryName?: string }[];
}
interface SketchMeta {
  appVersion?: string;
  version?: number;
}

/** Where a text sits: its page, the artboard or symbol source it is in (if any), and the groups between. */
interface Place {
  page: string;
  root: string | undefined;
  groups: string[];
  /** The page's id and the id of the layer that holds the text (the page's own for a layer straight on it): a repeated layer id is told apart by them. */
  pageId: string;
  parentId: string;
}

/** How Sketch's textBehaviour meets a longer text: 0 auto width, 1 auto height, 2 fixed size (an unknown one grows). */
const GROWTH: Record<number, BoxGrowth> = { 0: 'grows', 1: 'grows_down', 2: 'fixed' };

/**
 * The hint of a text layer's box (design-hints.ts: a pixel is not a character, so never a max length). The line
 * height is the paragraph's maximum line height when set; otherwise 1.2 × the font size, a guess at the font's own
 * line height (the file does not hold it).
 */
function boxHint(layer: SketchLayer, charsPerPx: number): string | undefined {
  const frame = layer.frame;
  if (!frame || typeof frame.width !== 'number' || typeof frame.height !== 'number') return undefined;
  const first = layer.attributedString?.attributes?.[0]?.attributes;
  const size = first?.MSAttributedStringFontAttribute?.attributes?.size;
  const lineHeightPx = first?.paragraphStyle?.maximumLineHeight || (typeof size === 'number' && size > 0 ? size * 1.2 : undefined);
  return textBoxHint({ width: frame.width, height: frame.height, lineHeightPx, growth: GROWTH[layer.textBehaviour ?? 0] ?? 'grows' }, charsPerPx);
}

const quoted = (kind: string, name: string | undefined) => `${kind} "${name ?? ''}"`;

function contextOf(place: Place, rootKind: string, layer: string): string {
  return [quoted('Page', place.page), ...(place.root === undefined ? [] : [quoted(rootKind, place.root)]), ...place.groups.map((g) => quoted('group', g)), layer].join(' › ');
}

function textOf(layer: SketchLayer): string | undefined {
  const text = layer.attributedString?.string;
  return typeof text === 'string' ? text : undefined;
}

/** Where a string sits, as a key suffix: `@<page id>` straight on a page, `@<page id>/<parent layer id>` within a layer. */
const placeSuffix = (place: Place) => `@${place.pageId}${place.parentId === place.pageId ? '' : `/${place.parentId}`}`;

/** What one walk over the pages found, and what it left out (for the sync's log). */
class Collected {
  hidden = 0;
  tooDeep = 0;
  /** Text layers without a plain string (Sketch before 48 archived it) or without an id. */
  unreadable = 0;
  /** Strings whose layer id is repeated in the document, keyed with their place. */
  duplicates = 0;
  overrides = 0;
  private found: { entry: RemoteString; place: Place }[] = [];

  add(entry: RemoteString, place: Place): void {
    this.found.push({ entry, place });
  }

  /**
   * The strings, keyed. A key Sketch repeats (it has been seen to repeat ids) is kept by none of them bare: each gets
   * the place it sits in, so which text owns which key follows neither the order of the pages nor of unrelated layers.
   * Only twins under one parent, in one place, are told apart by their order there (`#2`, `#3`).
   */
  strings(): RemoteString[] {
    const count = new Map<string, number>();
    for (const { entry } of this.found) count.set(entry.key, (count.get(entry.key) ?? 0) + 1);
    const keys = new Set<string>();
    return this.found.map(({ entry, place }) => {
      if (count.get(entry.key) === 1) return entry;
      this.duplicates++;
      const placed = `${entry.key}${placeSuffix(place)}`;
      let key = placed;
      for (let n = 2; keys.has(key); n++) key = `${placed}#${n}`;
      keys.add(key);
      return { ...entry, key };
    });
  }
}

/** Symbol sources by symbolID: the document's own (on any page) and those of libraries it uses (foreignSymbols). */
function symbolSources(pages: SketchLayer[], document: SketchDocument): Map<string, SketchLayer> {
  const sources = new Map<string, SketchLayer>();
  for (const page of pages) for (const layer of page.layers ?? []) if (layer._class === 'symbolMaster' && layer.symbolID) sources.set(layer.symbolID, layer);
  for (const foreign of document.foreignSymbols ?? []) {
    const master = foreign.symbolMaster;
    if (master?.symbolID && !sources.has(master.symbolID)) sources.set(master.symbolID, master);
  }
  return sources;
}

function findLayer(root: SketchLayer, id: string, depth = 0): SketchLayer | undefined {
  if (depth > MAX_DEPTH) return undefined;
  for (const layer of root.layers ?? []) {
    if (layer.do_objectID === id) return layer;
    const found = findLayer(layer, id, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The text layer an override name points at (`<layer id>` in the symbol, or `<instance id>/…` through nested symbols). */
function overrideTarget(sources: Map<string, SketchLayer>, symbolID: string | undefined, path: string[]): { symbol: SketchLayer; layer: SketchLayer } | undefined {
  let symbol = symbolID ? sources.get(symbolID) : undefined;
  for (let i = 0; symbol && i < path.length && i < MAX_OVERRIDE_DEPTH; i++) {
    const layer = findLayer(symbol, path[i]!);
    if (!layer) return undefined;
    if (i === path.length - 1) return layer._class === 'text' ? { symbol, layer } : undefined;
    symbol = layer.symbolID ? sources.get(layer.symbolID) : undefined;
  }
  return undefined;
}

/** A symbol instance's text overrides, each a string keyed `<instance id>/<override path>`. */
function collectOverrides(instance: SketchLayer, place: Place, rootKind: string, sources: Map<string, SketchLayer>, charsPerPx: number, into: Collected): void {
  for (const override of instance.overrideValues ?? []) {
    const name = override.overrideName;
    if (typeof name !== 'string' || !name.endsWith(STRING_OVERRIDE) || typeof override.value !== 'string') continue;
    if (override.value.trim() === '') continue;
    const path = name.slice(0, -STRING_OVERRIDE.length);
    const target = overrideTarget(sources, instance.symbolID, path.split('/'));
    // A text layer hidden in its symbol shows no override either.
    if (target?.layer.isVisible === false) continue;
    const layerName = target?.layer.name ?? path;
    const master = target ? ` of symbol "${target.symbol.name ?? ''}"` : '';
    const shown = target ? textOf(target.layer) : undefined;
    const notes = [`Override of the text layer "${layerName}"${master}${shown !== undefined ? ` (its text there: "${shown}")` : ''}.`, target ? boxHint(target.layer, charsPerPx) : undefined].filter((n) => n !== undefined).join(' ');
    into.overrides++;
    into.add({
      key: `${instance.do_objectID ?? ''}/${path}`,
      source: override.value,
      context: contextOf(place, rootKind, `${quoted('symbol instance', instance.name)} › ${quoted('layer', layerName)}`),
      notes,
    }, place);
  }
}

/** Every visible text layer and text override under `layer` (a hidden layer hides its children too). */
function collect(layer: SketchLayer, place: Place, rootKind: string, depth: number, sources: Map<string, SketchLayer>, charsPerPx: number, into: Collected): void {
  if (layer.isVisible === false) {
    into.hidden++;
    return;
  }
  if (depth > MAX_DEPTH) {
    into.tooDeep++;
    return;
  }
  if (layer._class === 'text') {
    const source = textOf(layer);
    if (source === undefined || !layer.do_objectID) {
      into.unreadable++;
      return;
    }
    if (source.trim() === '') return;
    // Sketch names a new text layer after its text; only a name someone gave it says something more.
    const named = layer.name && layer.name.trim() !== '' && layer.name !== source ? `Layer "${layer.name}".` : undefined;
    const notes = [named, boxHint(layer, charsPerPx)].filter((n) => n !== undefined).join(' ');
    into.add({ key: layer.do_objectID, source, context: contextOf(place, rootKind, quoted('layer', layer.name)), ...(notes ? { notes } : {}) }, place);
    return;
  }
  if (layer._class === 'symbolInstance') {
    collectOverrides(layer, place, rootKind, sources, charsPerPx, into);
    return;
  }
  const inner = { ...place, groups: depth === 0 ? place.groups : [...place.groups, layer.name ?? ''], parentId: layer.do_objectID ?? place.parentId };
  for (const child of layer.layers ?? []) collect(child, inner, rootKind, depth + 1, sources, charsPerPx, into);
}

function collectPage(page: SketchLayer, sources: Map<string, SketchLayer>, charsPerPx: number, into: Collected): void {
  const pageId = page.do_objectID ?? page.name ?? '';
  const onPage = { page: page.name ?? '', groups: [], pageId, parentId: pageId };
  for (const top of page.layers ?? []) {
    const root = top._class === 'artboard' || top._class === 'symbolMaster';
    if (root) {
      collect(top, { ...onPage, root: top.name ?? '' }, top._class === 'artboard' ? 'artboard' : 'symbol', 0, sources, charsPerPx, into);
    } else {
      // A layer straight on the page: a group's name goes into the trail, a text or an instance has none above it.
      collect({ layers: [top] }, { ...onPage, root: undefined }, 'artboard', 0, sources, charsPerPx, into);
    }
  }
}

function parseEntry<T>(entries: ZipEntries, name: string, origin: string): T {
  const bytes = entries[name];
  if (!bytes) throw new ConnectorError('config', `${origin} has no '${name}': it is not a Sketch document (Sketch 43 or later), or it is damaged. Save it again in Sketch and upload that.`);
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as T;
  } catch {
    throw new ConnectorError('config', `${origin}: '${name}' is not JSON. Save the document again in Sketch and upload that.`);
  }
}

/** A `.sketch` document's pages in the document's order, with its meta data. Refuses what is not one, saying why. */
function readDocument(bytes: Uint8Array, origin: string): { document: SketchDocument; meta: SketchMeta; pages: SketchLayer[] } {
  if (Buffer.from(bytes.subarray(0, SQLITE_MAGIC.length)).toString('latin1') === SQLITE_MAGIC) {
    throw new ConnectorError('config', `${origin} was saved by Sketch 42 or earlier (an SQLite file), which this connector cannot read. Open it in a current Sketch, save it, and upload that.`);
  }
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) throw new ConnectorError('config', `${origin} is not a Sketch document (a .sketch file is a zip of JSON, saved by Sketch 43 or later).`);
  let entries: ZipEntries;
  try {
    entries = readZip(bytes, { budget: DOCUMENT_LIMITS, filter: (name) => name === 'document.json' || name === 'meta.json' || /^pages\/[^/]+\.json$/.test(name) });
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw new ConnectorError('config', `${origin}: ${error.message}.`);
    throw new ConnectorError('config', `${origin} is not a readable zip (${error instanceof Error ? error.message : String(error)}). Save the document again in Sketch and upload that.`);
  }
  const document = parseEntry<SketchDocument>(entries, 'document.json', origin);
  const meta = entries['meta.json'] ? parseEntry<SketchMeta>(entries, 'meta.json', origin) : {};
  const refs = (document.pages ?? []).map((ref) => ref._ref).filter((ref): ref is string => typeof ref === 'string');
  const pages = refs.map((ref) => parseEntry<SketchLayer>(entries, `${ref}.json`, origin));
  return { document, meta, pages };
}

const fetchDocument = (ctx: Ctx, url: string) =>
  fetchFileUrl(ctx.http, url, ctx.secrets.file_token, { what: `Fetching the Sketch document at file_url '${url}'`, maxBytes: MAX_FETCH_BYTES, tooLarge: 'point file_url at a smaller document (or split it)' });

async function list(ctx: Ctx): Promise<Listing> {
  let bytes: Uint8Array;
  let origin: string;
  let from: string;
  if (ctx.settings.file_url) {
    bytes = await fetchDocument(ctx, ctx.settings.file_url);
    origin = `The document at file_url '${ctx.settings.file_url}'`;
    from = 'file_url';
  } else if (ctx.upload) {
    bytes = ctx.upload.content;
    origin = `The uploaded file '${ctx.upload.name}'`;
    from = `the uploaded file '${ctx.upload.name}'`;
  } else {
    throw new ConnectorError(
      'config',
      `No Sketch document to read: upload one (PUT /v1/integrations/sketch/${ctx.connectionId}/file?name=<name>.sketch with the .sketch file as the body), or set file_url (where to fetch it on each sync).`,
    );
  }
  const { document, meta, pages: all } = readDocument(bytes, origin);
  let pages = all;
  if (ctx.settings.pages.length > 0) {
    pages = ctx.settings.pages.map((name) => {
      const page = all.find((p) => p.name === name);
      if (!page) throw new ConnectorError('config', `${origin} has no page '${name}' (setting pages). Its pages: ${all.map((p) => `'${p.name ?? ''}'`).join(', ') || 'none'}.`);
      return page;
    });
  }
  // Symbol sources are looked up on every page, read or not: an instance on a page read may use one on a page that is not.
  const sources = symbolSources(all, document);
  const found = new Collected();
  for (const page of pages) collectPage(page, sources, ctx.settings.chars_per_px, found);
  const strings = found.strings();
  const left = [
    found.overrides > 0 ? `${found.overrides} of them symbol overrides` : undefined,
    found.hidden > 0 ? `${found.hidden} hidden layers skipped` : undefined,
    found.tooDeep > 0 ? `${found.tooDeep} layers nested deeper than ${MAX_DEPTH} levels left out` : undefined,
    found.unreadable > 0 ? `${found.unreadable} text layers without a plain text or an id skipped (Sketch before 48 archived the text: save the document in a current Sketch)` : undefined,
    found.duplicates > 0 ? `${found.duplicates} strings of repeated layer ids keyed with their page and parent layer (<id>@<page id>/<parent id>)` : undefined,
  ].filter((part) => part !== undefined);
  const saved = meta.appVersion ? `, saved by Sketch ${meta.appVersion}` : '';
  return {
    units: [{ kind: 'strings', path: ctx.settings.path, strings }],
    note: `Sketch, import only, from ${from}${saved}: ${strings.length} strings on ${pages.length} pages${left.length > 0 ? ` (${left.join(', ')})` : ''}.`,
  };
}

export const sketch: Connector<SketchSettings, SketchSecrets> = {
  id: 'sketch',
  name: 'Sketch',
  category: 'design',
  direction: 'import_only',
  summary:
    "Sketch documents (.sketch), uploaded or fetched from a URL: the text of every visible text layer and symbol override is imported for translation, with its page, artboard and group names as context and a fixed-width box's size as a length hint in the notes; writes nothing back.",
  settings,
  secrets,
  upload: { description: 'a Sketch document (.sketch)', extensions: ['.sketch'] },
  list,
};
