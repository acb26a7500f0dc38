/**
 * Sketch documents for the Sketch connector's tests: a builder that makes real `.sketch` files (zips of JSON) from
 * pages described in a few lines, and a small file server that holds one document and serves it at `file_url` behind
 * a Bearer token, rebuilt from its state on each request so a designer's edit shows in the next fetch.
 *
 * Shapes taken from: the open JSON schema of the file format, sketch-hq/sketch-document
 * (packages/file-format/schema: document.schema.yaml with `pages` as MSJSONFileReference `{_ref_class:
 * 'MSImmutablePage', _ref: 'pages/<id>'}`, meta.schema.yaml `pagesAndArtboards`/`appVersion`/`version` 121–146 and
 * `compatibilityVersion` 99, layers/page, artboard, group, text (`attributedString.string`, `textBehaviour` 0
 * Flexible, 1 Fixed, 2 FixedWidthAndHeight), symbol-master (`symbolID`), symbol-instance (`overrideValues`),
 * objects/override-value and override-name (`<uuid>_stringValue`, nested as `<uuid>/<uuid>_stringValue`), rect,
 * string-attribute with paragraphStyle `maximumLineHeight` and fontDescriptor `size`, utils/uuid (upper-case UUIDs));
 * developer.sketch.com/file-format (the folder structure: meta.json, document.json, user.json, pages/, images/,
 * previews/preview.png).
 * Guesses: the values of meta.json's `commit`, `build`, `saveHistory` and `appVersion` are illustrative; the file
 * server is no vendor's (a file_url is any HTTPS server), so its 401 body `{"error": "invalid token"}` is made up.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildZip, type ZipEntrySpec } from '../build-zip.js';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export type SketchLayer = Record<string, unknown> & { _class: string; do_objectID: string; name: string; layers?: SketchLayer[] };
export interface SketchPage {
  id: string;
  name: string;
  layers: SketchLayer[];
}
interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A Sketch-style object id (an upper-case UUID), the same for the same tag, so tests can name layers. */
export function sketchId(tag: string): string {
  const hex = createHash('sha1').update(tag).digest('hex').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const rect = (f: Frame) => ({ _class: 'rect', constrainProportions: false, ...f });

function layerBase(id: string, name: string, frame: Frame, isVisible: boolean) {
  return {
    do_objectID: id,
    booleanOperation: -1,
    exportOptions: { _class: 'exportOptions', includedLayerIds: [], layerOptions: 0, shouldTrim: false, exportFormats: [] },
    frame: rect(frame),
    isFixedToViewport: false,
    isFlippedHorizontal: false,
    isFlippedVertical: false,
    isLocked: false,
    isTemplate: false,
    isVisible,
    layerListExpandedType: 0,
    name,
    nameIsFixed: false,
    resizingConstraint: 63,
    resizingType: 0,
    rotation: 0,
    shouldBreakMaskChain: false,
  };
}

export interface TextOptions {
  /** 0 flexible (auto width, the default for a click-to-type layer), 1 fixed width, 2 fixed size. */
  textBehaviour?: 0 | 1 | 2;
  isVisible?: boolean;
  fontSize?: number;
  /** The paragraph's line height; absent as in a layer whose line height is the font's own. */
  lineHeight?: number;
}

export function text(id: string, name: string, string: string, frame: Frame, options: TextOptions = {}): SketchLayer {
  const fontSize = options.fontSize ?? 16;
  return {
    _class: 'text',
    ...layerBase(id, name, frame, options.isVisible ?? true),
    style: { _class: 'style', do_objectID: sketchId(`${id}-style`), endMarkerType: 0, miterLimit: 10, startMarkerType: 0, windingRule: 1 },
    attributedString: {
      _class: 'attributedString',
      string,
      attributes: [
        {
          _class: 'stringAttribute',
          location: 0,
          length: string.length,
          attributes: {
            MSAttributedStringFontAttribute: { _class: 'fontDescriptor', attributes: { name: 'Inter-Regular', size: fontSize } },
            MSAttributedStringColorAttribute: { _class: 'color', alpha: 1, blue: 0, green: 0, red: 0 },
            textStyleVerticalAlignmentKey: 0,
            kerning: 0,
            paragraphStyle: { _class: 'paragraphStyle', alignment: 0, ...(options.lineHeight ? { maximumLineHeight: options.lineHeight, minimumLineHeight: options.lineHeight } : {}) },
          },
        },
      ],
    },
    automaticallyDrawOnUnderlyingPath: false,
    dontSynchroniseWithSymbol: false,
    lineSpacingBehaviour: 2,
    textBehaviour: options.textBehaviour ?? 0,
    glyphBounds: `{{0, 3}, {${frame.width}, ${frame.height - 6}}}`,
  };
}

export function group(id: string, name: string, layers: SketchLayer[], isVisible = true): SketchLayer {
  return { _class: 'group', ...layerBase(id, name, { x: 0, y: 0, width: 390, height: 200 }, isVisible), hasClickThrough: false, layers };
}

export function artboard(id: string, name: string, layers: SketchLayer[], isVisible = true): SketchLayer {
  return {
    _class: 'artboard',
    ...layerBase(id, name, { x: 0, y: 0, width: 390, height: 844 }, isVisible),
    hasClickThrough: true,
    backgroundColor: { _class: 'color', alpha: 1, blue: 1, green: 1, red: 1 },
    hasBackgroundColor: false,
    includeBackgroundColorInExport: true,
    isFlowHome: false,
    resizesContent: false,
    layers,
  };
}

export function symbolMaster(id: string, name: string, symbolID: string, layers: SketchLayer[]): SketchLayer {
  return {
    _class: 'symbolMaster',
    ...layerBase(id, name, { x: 500, y: 0, width: 160, height: 48 }, true),
    hasClickThrough: true,
    backgroundColor: { _class: 'color', alpha: 1, blue: 1, green: 1, red: 1 },
    hasBackgroundColor: false,
    includeBackgroundColorInExport: true,
    includeBackgroundColorInInstance: false,
    isFlowHome: false,
    resizesContent: false,
    symbolID,
    allowsOverrides: true,
    overrideProperties: [],
    layers,
  };
}

/** An instance of the symbol `symbolID`, with text overrides by override path (`<layer id>` or `<instance id>/<layer id>`). */
export function symbolInstance(id: string, name: string, symbolID: string, overrides: Record<string, string> = {}, isVisible = true): SketchLayer {
  return {
    _class: 'symbolInstance',
    ...layerBase(id, name, { x: 16, y: 600, width: 160, height: 48 }, isVisible),
    overrideValues: Object.entries(overrides).map(([path, value]) => ({ _class: 'overrideValue', overrideName: `${path}_stringValue`, value })),
    scale: 1,
    symbolID,
    verticalSpacing: 0,
    horizontalSpacing: 0,
  };
}

const json = (value: unknown) => JSON.stringify(value);

export interface SketchFileOptions {
  /** Symbols of a library the document uses (document.json's foreignSymbols). */
  foreignSymbols?: { libraryName: string; master: SketchLayer }[];
  /** Extra zip entries (a bitmap, or anything a test needs). */
  extra?: ZipEntrySpec[];
  /** Entries to leave out (to make a damaged document, or to replace one with an `extra` of the same name). */
  without?: string[];
}

/** A `.sketch` document of these pages: document.json, meta.json, user.json, one JSON per page, a bitmap and a preview. */
export function sketchFile(pages: readonly SketchPage[], options: SketchFileOptions = {}): Uint8Array {
  const documentId = sketchId('document');
  const document = {
    _class: 'document',
    do_objectID: documentId,
    assets: { _class: 'assetCollection', do_objectID: sketchId('assets'), images: [], colorAssets: [], exportPresets: [], gradientAssets: [], imageCollection: { _class: 'imageCollection', images: {} }, colors: [], gradients: [] },
    colorSpace: 1,
    currentPageIndex: 0,
    foreignLayerStyles: [],
    foreignSymbols: (options.foreignSymbols ?? []).map((f, i) => ({
      _class: 'MSImmutableForeignSymbol',
      do_objectID: sketchId(`foreign-${i}`),
      libraryID: sketchId(`library-${f.libraryName}`),
      sourceLibraryName: f.libraryName,
      symbolPrivate: false,
      originalMaster: f.master,
      symbolMaster: f.master,
    })),
    foreignTextStyles: [],
    foreignSwatches: [],
    layerStyles: { _class: 'sharedStyleContainer', do_objectID: sketchId('layer-styles'), objects: [] },
    layerTextStyles: { _class: 'sharedTextStyleContainer', do_objectID: sketchId('text-styles'), objects: [] },
    sharedSwatches: { _class: 'swatchContainer', do_objectID: sketchId('swatches'), objects: [] },
    fontReferences: [],
    documentState: { _class: 'documentState' },
    pages: pages.map((p) => ({ _class: 'MSJSONFileReference', _ref_class: 'MSImmutablePage', _ref: `pages/${p.id}` })),
  };
  const roots = (p: SketchPage) => Object.fromEntries(p.layers.filter((l) => l._class === 'artboard' || l._class === 'symbolMaster').map((l) => [l.do_objectID, { name: l.name }]));
  const meta = {
    commit: '5d8b3c1e0f7a2b4c6d8e9f0a1b2c3d4e5f6a7b8c',
    pagesAndArtboards: Object.fromEntries(pages.map((p) => [p.id, { name: p.name, artboards: roots(p) }])),
    version: 146,
    compatibilityVersion: 99,
    coeditCompatibilityVersion: 145,
    app: 'com.bohemiancoding.sketch3',
    autosaved: 0,
    variant: 'NONAPPSTORE',
    created: { commit: '5d8b3c1e0f7a2b4c6d8e9f0a1b2c3d4e5f6a7b8c', appVersion: '2025.1', build: 199630, app: 'com.bohemiancoding.sketch3', compatibilityVersion: 99, coeditCompatibilityVersion: 145, version: 146, variant: 'NONAPPSTORE' },
    saveHistory: ['NONAPPSTORE.199630'],
    appVersion: '2025.1',
    build: 199630,
  };
  const user = { document: { pageListHeight: 118, pageListCollapsed: 0 }, ...Object.fromEntries(pages.map((p) => [p.id, { scrollOrigin: '{0, 0}', zoomValue: 1 }])) };
  const page = (p: SketchPage) => ({
    _class: 'page',
    ...layerBase(p.id, p.name, { x: 0, y: 0, width: 0, height: 0 }, true),
    hasClickThrough: true,
    horizontalRulerData: { _class: 'rulerData', base: 0, guides: [] },
    verticalRulerData: { _class: 'rulerData', base: 0, guides: [] },
    layers: p.layers,
  });
  // A PNG signature and some bytes: never inflated by the connector, only counted.
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(256).fill(7)]);
  const entries: ZipEntrySpec[] = [
    { name: 'document.json', content: json(document) },
    { name: 'meta.json', content: json(meta) },
    { name: 'user.json', content: json(user) },
    ...pages.map((p) => ({ name: `pages/${p.id}.json`, content: json(page(p)) })),
    { name: 'images/0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6.png', content: png, store: true },
    { name: 'previews/preview.png', content: png, store: true },
  ];
  return buildZip([...entries.filter((e) => !(options.without ?? []).includes(e.name)), ...(options.extra ?? [])]);
}

/** The layer ids of the seed document's SEED strings, in SEED's order. */
const SEED_LAYERS = SEED.map((s) => sketchId(`seed-${s.id}`));

/**
 * The seed document: SEED strings are text layers of the artboard "Cart screen" on page "Checkout" (one inside a
 * group), with layers that are no strings (a hidden text, an empty one, a hidden group's text).
 */
function seedPages(texts: Map<string, string>): SketchPage[] {
  const [welcome, cart, checkout, farewell] = SEED_LAYERS as [string, string, string, string];
  const at = (id: string) => texts.get(id)!;
  return [
    {
      id: sketchId('page-checkout'),
      name: 'Checkout',
      layers: [
        artboard(sketchId('artboard-cart'), 'Cart screen', [
          text(welcome, 'Title', at(welcome), { x: 16, y: 40, width: 200, height: 20 }, { textBehaviour: 2, lineHeight: 20 }),
          text(cart, at(cart), at(cart), { x: 16, y: 80, width: 220, height: 40 }, { textBehaviour: 1, lineHeight: 20 }),
          group(sketchId('group-footer'), 'Footer', [
            text(checkout, 'Button label', at(checkout), { x: 16, y: 700, width: 141, height: 20 }),
            text(farewell, 'Goodbye', at(farewell), { x: 16, y: 800, width: 100, height: 20 }, { textBehaviour: 2 }),
          ]),
          text(sketchId('seed-draft'), 'Draft note', 'Remove before launch', { x: 16, y: 820, width: 200, height: 20 }, { isVisible: false }),
          text(sketchId('seed-spacer'), 'Spacer', '   ', { x: 16, y: 840, width: 50, height: 20 }),
          group(sketchId('group-old'), 'Old header', [text(sketchId('seed-old'), 'Old title', 'Shop now', { x: 0, y: 0, width: 120, height: 20 })], false),
        ]),
      ],
    },
  ];
}

export interface SketchMockRequest extends MockRequest {
  authorization: string | undefined;
}

export interface SketchMock extends RecordingServer<SketchMockRequest> {
  token: string;
  /** Where the served document is: `<url>/files/Checkout.sketch`. */
  fileUrl: string;
  /** The served document's bytes now. */
  bytes(): Uint8Array;
  /** The layer id holding a SEED string. */
  seedLayer(id: string): string;
  /** A designer changes a text layer of the served document (and saves it). */
  setText(layerId: string, text: string): void;
  /** The visible, non-empty text layers of the served document. */
  visibleTexts(): number;
}

const TOKEN = 'sk_files_7Jq2Lm9Xc4Vb8Nz1Wd6Rt3Hy';
const FILE_NAME = 'Checkout.sketch';

export async function startSketchMock(): Promise<SketchMock> {
  const texts = new Map(SEED_LAYERS.map((id, i) => [id, SEED[i]!.source]));
  const bytes = () => sketchFile(seedPages(texts));

  function handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return sendJson(res, 401, { error: 'invalid token' }, { 'www-authenticate': 'Bearer realm="files"' });
    if (req.method !== 'GET' || url.pathname !== `/files/${FILE_NAME}`) return sendJson(res, 404, { error: `no file at ${url.pathname}` });
    const body = bytes();
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(body.length), 'content-disposition': `attachment; filename="${FILE_NAME}"` });
    res.end(body);
  }

  const server = await serveRecording(handle, { extra: (req) => ({ authorization: req.headers.authorization }) });
  return {
    ...server,
    token: TOKEN,
    fileUrl: `${server.url}/files/${FILE_NAME}`,
    bytes,
    seedLayer(id) {
      const index = SEED.findIndex((s) => s.id === id);
      if (index < 0) throw new Error(`Sketch mock: no seed string '${id}'`);
      return SEED_LAYERS[index]!;
    },
    setText(layerId, value) {
      if (!texts.has(layerId)) throw new Error(`Sketch mock: no text layer ${layerId}`);
      texts.set(layerId, value);
    },
    visibleTexts: () => [...texts.values()].filter((t) => t.trim() !== '').length,
  };
}

/** The acceptance scenario's view of the mock: the document at file_url. Sketch holds no translations: import only. */
export async function sketchFixture(): Promise<RemoteFixture> {
  const mock = await startSketchMock();
  return cmsFixture({
    connector: 'sketch',
    settings: { file_url: mock.fileUrl },
    secrets: { file_token: mock.token },
    badSecrets: { file_token: 'sk_files_revoked_0000000000000' },
    edit: (id, _locale, value) => mock.setText(mock.seedLayer(id), value),
    sourceCount: () => mock.visibleTexts(),
    server: mock,
  });
}
