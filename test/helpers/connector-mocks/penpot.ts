/**
 * A local Penpot holding design files in memory: the RPC API's POST /api/rpc/command/get-file and
 * /api/rpc/command/get-project-files, and, as a file host would, each file's `.penpot` export (binfile v3) at
 * GET /exports/<file id>.penpot behind a Bearer token.
 *
 * Shapes taken from Penpot's source (github.com/penpot/penpot, backend and common):
 * - backend/src/app/binfile/v3.clj: the export's entries (`manifest.json` with `type: "penpot/export-files"`,
 *   `version`, `generatedBy`, `files: [{id, name, features}]`, `relations`; `files/<id>.json` without `data`;
 *   `files/<id>/pages/<page>.json` without `objects` but with `index`; one `files/<id>/pages/<page>/<shape>.json` per
 *   shape with `pageId`; `objects/<id>.json` and the media bytes), written by `json/write-camel-key` with indentation;
 * - backend/src/app/binfile/v1.clj and common.clj: a v1 export is a binary stream (mark 1, magic 800099563638710213 as
 *   a long, version), a v3 one starts with the zip signature `PK\3\4`;
 * - backend/src/app/http/middleware.clj: `Accept: application/json` gets JSON with camelCased keys, anything else
 *   Transit; requests' camelCase keys are read as kebab-case (`projectId`);
 * - backend/src/app/rpc.clj and http/errors.clj: no or a wrong token is 401 `{type: "authentication", code:
 *   "authentication-required", hint: "authentication required for this endpoint"}`; a file one cannot read is 404
 *   `{type: "not-found", code: "object-not-found", hint: "not found"}`; a malformed id is 400 `{type: "validation",
 *   code: "params-validation", …}`;
 * - backend/src/app/rpc/commands/files.clj: get-file's File (`id, features, hasMediaTrimmed, commentThreadSeqn, name,
 *   revn, vern, modifiedAt, isShared, projectId, createdAt, data, permissions`), get-project-files' rows;
 * - common/src/app/common/types/shape.cljc and shape/text.cljc: shapes (`parentId`, `frameId`, `shapes`, `hidden`,
 *   `growType` fixed | auto-width | auto-height) and text content root › paragraph-set › paragraph › leaves with
 *   `text` (font attributes as strings: `fontSize: "14"`, `lineHeight: "1.2"`).
 * The access token header `Authorization: Token <token>` is from the API documentation (design.penpot.app/api/doc).
 * Guessed: the order of get-file's keys and `data`'s less relevant fields (options, version numbers), and the Transit
 * body answered without `Accept: application/json` (only its content type matters here). The export's host is not
 * Penpot (Penpot's own export-binfile is a Transit event stream): its 401 is a generic host's plain-text refusal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildZip } from '../build-zip.js';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface PenpotRequest extends MockRequest {
  authorization: string | undefined;
  accept: string | undefined;
}

export type PenpotShape = Record<string, unknown> & { id: string; name: string; type: string; shapes?: string[]; hidden?: boolean; content?: unknown };
interface PenpotPage {
  id: string;
  name: string;
  objects: Map<string, PenpotShape>;
}
interface PenpotFile {
  id: string;
  name: string;
  projectId: string;
  revn: number;
  modifiedAt: string;
  pages: PenpotPage[];
}

export interface PenpotMock extends RecordingServer<PenpotRequest> {
  token: string;
  exportToken: string;
  fileId: string;
  secondId: string;
  projectId: string;
  /** Where a file's `.penpot` export is served. */
  exportUrl(fileId: string): string;
  /** The file's export as Penpot 2 writes it, from what the mock holds now. */
  exportOf(fileId: string): Uint8Array;
  shape(fileId: string, shapeId: string): PenpotShape | undefined;
  /** The text shape holding a SEED string. */
  seedShape(id: string): PenpotShape;
  /** The key the connector gives a SEED string: `<page id>/<shape id>`. */
  seedKey(id: string): string;
  /**
   * A designer duplicates a page, as Penpot's Duplicate does: a page `copyId` named `name` at position `at`, its shapes
   * copied with the same ids. Gives the way back.
   */
  duplicatePage(fileId: string, pageId: string, copy: { id: string; name: string; at: number }): () => void;
  /** Until set back to undefined, `command` answers 200 with an empty JSON body (a proxy's doing). */
  answerEmpty(command: string | undefined): void;
  /** A designer changes a text shape's text (on `pageId`, or the first page holding it): its content, and the file's revision. */
  setText(fileId: string, shapeId: string, text: string, pageId?: string): void;
  /** How many visible, non-empty text shapes a file has. */
  visibleTexts(fileId: string): number;
}

const TOKEN = 'eyJhbGciOiJBMjU2S1ciLCJlbmMiOiJBMjU2R0NNIn0.pnpt-access-7Kc2pT9vLw4nR8sY1bZ6hJ0f';
const EXPORT_TOKEN = 'exports-bucket-read-3Fh8Jk2Lm6Np0Qr3St7Vw1';
const ROOT = '00000000-0000-0000-0000-000000000000';
const FILE_ID = '3f0c5a1e-9d4b-8041-8006-1b2c3d4e5f60';
const SECOND_ID = '3f0c5a1e-9d4b-8041-8006-1b2c3d4e5f61';
const PROJECT_ID = '9a7e2b10-44c1-80f3-8006-5e4d3c2b1a00';
const FEATURES = ['fdata/shape-data-type', 'components/v2', 'styles/v2', 'layout/grid', 'fdata/path-data', 'plugins/runtime', 'design-tokens/v1'];
const AUTH_REQUIRED = { type: 'authentication', code: 'authentication-required', hint: 'authentication required for this endpoint' };
const NOT_FOUND = { type: 'not-found', code: 'object-not-found', hint: 'not found' };

/** A uuid of the seed files: a fixed prefix and a counter. */
const id = (n: number): string => `e7d1f9a0-5c1b-80b2-8006-${n.toString(16).padStart(12, '0')}`;

const leafAttrs = { fontId: 'sourcesanspro', fontFamily: 'sourcesanspro', fontVariantId: 'regular', fontSize: '14', fontWeight: '400', fontStyle: 'normal', lineHeight: '1.2', letterSpacing: '0', textTransform: 'none', textDecoration: 'none', fills: [{ fillColor: '#000000', fillOpacity: 1 }] };

/** Text content as Penpot's editor makes it: one paragraph a line, `runs` splitting the first one into styled leaves. */
export function textContent(text: string, runs?: string[]): Record<string, unknown> {
  const paragraphs = text.split('\n').map((line, i) => ({
    type: 'paragraph',
    key: `p${i}`,
    textAlign: 'left',
    ...leafAttrs,
    children: (i === 0 && runs ? runs : [line]).map((run, j) => ({ ...leafAttrs, ...(j > 0 ? { fontWeight: '700' } : {}), text: run, key: `l${i}${j}` })),
  }));
  return { type: 'root', key: 'root', verticalAlign: 'top', children: [{ type: 'paragraph-set', children: paragraphs }] };
}

function geometry(x: number, y: number, width: number, height: number) {
  return {
    x,
    y,
    width,
    height,
    rotation: 0,
    selrect: { x, y, width, height, x1: x, y1: y, x2: x + width, y2: y + height },
    points: [
      { x, y },
      { x: x + width, y },
      { x: x + width, y: y + height },
      { x, y: y + height },
    ],
    transform: { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 },
    transformInverse: { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 },
  };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function text(shapeId: string, name: string, characters: string, box: Box, growType: string | undefined, extra: Partial<PenpotShape> = {}): PenpotShape {
  return {
    id: shapeId,
    name,
    type: 'text',
    ...geometry(box.x, box.y, box.width, box.height),
    ...(growType ? { growType } : {}),
    content: textContent(characters),
    positionData: [{ x: box.x, y: box.y + 14, width: box.width, height: 17, text: characters, ...leafAttrs }],
    proportionLock: false,
    ...extra,
  };
}

const container = (shapeId: string, name: string, type: 'frame' | 'group', children: string[], box: Box, extra: Partial<PenpotShape> = {}): PenpotShape => ({
  id: shapeId,
  name,
  type,
  ...geometry(box.x, box.y, box.width, box.height),
  shapes: children,
  fills: type === 'frame' ? [{ fillColor: '#FFFFFF', fillOpacity: 1 }] : [],
  strokes: [],
  ...(type === 'frame' ? { hideFillOnExport: false, proportionLock: false } : {}),
  ...extra,
});

const rootFrame = (children: string[]): PenpotShape => container(ROOT, 'Root Frame', 'frame', children, { x: 0, y: 0, width: 0.01, height: 0.01 });

/** Sets `parentId`/`frameId` from the tree, as Penpot keeps them. */
function page(pageId: string, name: string, shapes: PenpotShape[]): PenpotPage {
  const objects = new Map(shapes.map((s) => [s.id, s]));
  const place = (parent: PenpotShape, frame: string) => {
    for (const child of parent.shapes ?? []) {
      const shape = objects.get(child)!;
      shape.parentId = parent.id;
      shape.frameId = frame;
      place(shape, shape.type === 'frame' ? shape.id : frame);
    }
  };
  const root = objects.get(ROOT)!;
  root.parentId = ROOT;
  root.frameId = ROOT;
  place(root, ROOT);
  return { id: pageId, name, objects };
}

/** The seed file: SEED strings are text shapes of the board "Cart screen" on page "Checkout", with shapes that are no strings. */
function seedFile(): PenpotFile {
  const [welcome, cart, checkout, farewell] = SEED.map((s) => s.source) as [string, string, string, string];
  const board = id(0x10);
  const shapes = [
    rootFrame([board]),
    container(board, 'Cart screen', 'frame', [id(1), id(2), id(3), id(4), id(5), id(6), id(7), id(9)], { x: 0, y: 0, width: 390, height: 844 }),
    // A fixed box one line high: 200 px × 0.14 = 28 characters; 17 px ÷ (14 px × 1.2) = 1 line.
    text(id(1), 'Title', welcome, { x: 16, y: 40, width: 200, height: 17 }, 'fixed'),
    // Wraps at a fixed width and grows in height; named after its text, as Penpot names a new text shape.
    text(id(2), cart, cart, { x: 16, y: 80, width: 220, height: 34 }, 'auto-height'),
    // Auto width: the box follows the text, no limit.
    text(id(3), 'Button label', checkout, { x: 16, y: 700, width: 141, height: 17 }, 'auto-width'),
    // No growType at all: a fixed box.
    text(id(4), 'Footer', farewell, { x: 16, y: 800, width: 100, height: 17 }, undefined),
    text(id(5), 'Draft note', 'Remove before launch', { x: 16, y: 820, width: 200, height: 17 }, 'fixed', { hidden: true }),
    text(id(6), 'Spacer', '   ', { x: 16, y: 840, width: 50, height: 17 }, 'fixed'),
    { id: id(7), name: 'Divider', type: 'rect', ...geometry(16, 760, 358, 1), fills: [{ fillColor: '#E0E0E0', fillOpacity: 1 }], strokes: [] },
    container(id(9), 'Old header', 'group', [id(8)], { x: 0, y: 0, width: 120, height: 17 }, { hidden: true }),
    text(id(8), 'Old title', 'Shop now', { x: 0, y: 0, width: 120, height: 17 }, 'fixed'),
  ];
  return { id: FILE_ID, name: 'Store checkout', projectId: PROJECT_ID, revn: 41, modifiedAt: '2026-11-02T09:00:00.000Z', pages: [page(id(0x100), 'Checkout', shapes)] };
}

function secondFile(): PenpotFile {
  const [step, card, unused, archiveBoard] = [id(0x21), id(0x22), id(0x24), id(0x31)];
  return {
    id: SECOND_ID,
    name: 'Onboarding flow',
    projectId: PROJECT_ID,
    revn: 7,
    modifiedAt: '2026-10-28T15:30:00.000Z',
    pages: [
      page(id(0x200), 'Onboarding', [
        rootFrame([step, unused, id(0x26)]),
        container(step, 'Step 1', 'frame', [card], { x: 0, y: 0, width: 390, height: 844 }),
        container(card, 'Card', 'frame', [id(0x23), id(0x27)], { x: 16, y: 16, width: 358, height: 200 }),
        text(id(0x23), 'Heading', 'Create your account', { x: 0, y: 0, width: 300, height: 34 }, 'fixed'),
        { ...text(id(0x27), 'Perks', 'Free shipping\non every order', { x: 0, y: 40, width: 300, height: 34 }, 'auto-height'), content: textContent('Free shipping\non every order', ['Free ', 'shipping']) },
        container(unused, 'Unused variant', 'frame', [id(0x25)], { x: 400, y: 0, width: 390, height: 844 }, { hidden: true }),
        text(id(0x25), 'Heading', 'Sign up today', { x: 0, y: 0, width: 300, height: 24 }, 'fixed'),
        text(id(0x26), 'Loose text', 'Skip for now', { x: 800, y: 0, width: 80, height: 17 }, 'auto-width'),
      ]),
      page(id(0x300), 'Archive', [rootFrame([archiveBoard]), container(archiveBoard, 'Old step', 'frame', [id(0x32)], { x: 0, y: 0, width: 390, height: 844 }), text(id(0x32), 'Heading', 'Welcome aboard', { x: 0, y: 0, width: 300, height: 24 }, 'fixed')]),
    ],
  };
}

const fileRecord = (file: PenpotFile) => ({
  id: file.id,
  features: FEATURES,
  hasMediaTrimmed: false,
  commentThreadSeqn: 0,
  name: file.name,
  revn: file.revn,
  vern: 0,
  modifiedAt: file.modifiedAt,
  isShared: false,
  projectId: file.projectId,
  createdAt: '2026-09-01T08:00:00.000Z',
});

/** The file as get-file answers it in JSON: the record, its data (pages in order, pagesIndex with objects) and permissions. */
function getFileBody(file: PenpotFile) {
  return {
    ...fileRecord(file),
    data: {
      id: file.id,
      version: 67,
      pages: file.pages.map((p) => p.id),
      pagesIndex: Object.fromEntries(file.pages.map((p) => [p.id, { id: p.id, name: p.name, objects: Object.fromEntries(p.objects) }])),
      options: { componentsV2: true },
      components: {},
      colors: {},
      typographies: {},
    },
    permissions: { type: 'membership', isOwner: true, isAdmin: true, canEdit: true, canRead: true, isLogged: true },
  };
}

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** The file's `.penpot` export as binfile v3 writes it (entries in that order, media last). */
function exportZip(file: PenpotFile): Uint8Array {
  const media = 'c0ffee00-1111-8222-8333-444455556666';
  const entries = [
    { name: `files/${file.id}.json`, content: pretty({ ...fileRecord(file), version: 67, options: { componentsV2: true } }) },
    ...file.pages.flatMap((p, index) => [
      { name: `files/${file.id}/pages/${p.id}.json`, content: pretty({ id: p.id, name: p.name, index }) },
      ...[...p.objects.values()].map((shape) => ({ name: `files/${file.id}/pages/${p.id}/${shape.id}.json`, content: pretty({ ...shape, pageId: p.id }) })),
    ]),
    { name: `objects/${media}.json`, content: pretty({ id: media, size: 8, contentType: 'image/png', bucket: 'file-media-object', hash: 'blake2b:0000' }) },
    { name: `objects/${media}.png`, content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), store: true },
    { name: 'manifest.json', content: pretty({ type: 'penpot/export-files', version: 1, generatedBy: 'penpot/2.11.1', refer: 'penpot', files: [{ id: file.id, name: file.name, features: FEATURES }], relations: [] }) },
  ];
  return buildZip(entries);
}

/** A Penpot 1 export's first bytes (binfile v1): the header mark, the magic number and version 1 as longs. */
export function v1Export(): Uint8Array {
  const header = Buffer.alloc(1 + 8 + 8 + 64);
  header.writeUInt8(1, 0);
  header.writeBigInt64BE(800099563638710213n, 1);
  header.writeBigInt64BE(1n, 9);
  return new Uint8Array(header);
}

function visible(page: PenpotPage, shapeId: string, seen = new Set<string>()): number {
  const shape = page.objects.get(shapeId);
  if (!shape || seen.has(shapeId) || shape.hidden) return 0;
  seen.add(shapeId);
  if (shape.type === 'text') {
    const paragraphs = ((shape.content as { children: { children: { children: { text: string }[] }[] }[] }).children[0]?.children ?? []).map((p) => p.children.map((l) => l.text).join(''));
    return paragraphs.join('\n').trim() === '' ? 0 : 1;
  }
  return (shape.shapes ?? []).reduce((n, child) => n + visible(page, child, seen), 0);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startPenpotMock(): Promise<PenpotMock> {
  const files = new Map<string, PenpotFile>([
    [FILE_ID, seedFile()],
    [SECOND_ID, secondFile()],
  ]);

  let empty: string | undefined;

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): void {
    const exported = url.pathname.match(/^\/exports\/([^/]+)\.penpot$/);
    if (exported && req.method === 'GET') {
      if (req.headers.authorization !== `Bearer ${EXPORT_TOKEN}`) {
        res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' });
        return void res.end('Unauthorized');
      }
      const file = files.get(exported[1]!);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('Not Found');
      }
      const zip = exportZip(file);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(zip.length), 'content-disposition': `attachment; filename="${file.name}.penpot"` });
      return void res.end(zip);
    }
    const command = url.pathname.match(/^\/api\/rpc\/command\/([a-z-]+)$/)?.[1];
    const json = (req.headers.accept ?? '').includes('application/json');
    const send = (status: number, value: unknown) => {
      if (json) return sendJson(res, status, value);
      // Penpot's default encoding; nothing here reads it.
      res.writeHead(status, { 'content-type': 'application/transit+json' });
      res.end(JSON.stringify(['^ ', '~:transit', true]));
    };
    if (req.headers.authorization !== `Token ${TOKEN}`) return send(401, AUTH_REQUIRED);
    if (command !== undefined && command === empty) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end();
    }
    const params = { ...Object.fromEntries(url.searchParams), ...(typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}) };
    if (command === 'get-file') {
      if (typeof params.id !== 'string' || !UUID.test(params.id)) return send(400, { type: 'validation', code: 'params-validation', hint: 'invalid params', explain: 'id: should be a uuid' });
      const file = files.get(params.id);
      return file ? send(200, getFileBody(file)) : send(404, NOT_FOUND);
    }
    if (command === 'get-project-files') {
      if (typeof params.projectId !== 'string' || !UUID.test(params.projectId)) return send(400, { type: 'validation', code: 'params-validation', hint: 'invalid params', explain: 'project-id: should be a uuid' });
      const found = [...files.values()].filter((f) => f.projectId === params.projectId);
      if (found.length === 0) return send(404, NOT_FOUND);
      return send(200, found.map((f) => ({ id: f.id, projectId: f.projectId, createdAt: '2026-09-01T08:00:00.000Z', modifiedAt: f.modifiedAt, name: f.name, revn: f.revn, vern: 0, isShared: false, thumbnailId: null, teamId: 'b0b0b0b0-0000-8000-8000-000000000001' })));
    }
    send(404, { type: 'not-found', code: 'method-not-found', hint: `no method '${command ?? url.pathname}' found` });
  }

  const server = await serveRecording(handle, { extra: (req) => ({ authorization: req.headers.authorization, accept: req.headers.accept }) });
  const fileOf = (fileId: string) => {
    const found = files.get(fileId);
    if (!found) throw new Error(`Penpot mock: no file '${fileId}'`);
    return found;
  };
  const shapeOf = (fileId: string, shapeId: string) => fileOf(fileId).pages.map((p) => p.objects.get(shapeId)).find((s) => s !== undefined);
  const seedShape = (seedId: string) => {
    const index = SEED.findIndex((s) => s.id === seedId);
    if (index < 0) throw new Error(`Penpot mock: no seed string '${seedId}'`);
    return shapeOf(FILE_ID, id(index + 1))!;
  };

  return {
    ...server,
    token: TOKEN,
    exportToken: EXPORT_TOKEN,
    fileId: FILE_ID,
    secondId: SECOND_ID,
    projectId: PROJECT_ID,
    exportUrl: (fileId) => `${server.url}/exports/${fileId}.penpot`,
    exportOf: (fileId) => exportZip(fileOf(fileId)),
    shape: shapeOf,
    seedShape,
    seedKey(seedId) {
      const shapeId = seedShape(seedId).id;
      return `${fileOf(FILE_ID).pages.find((p) => p.objects.has(shapeId))!.id}/${shapeId}`;
    },
    duplicatePage(fileId, pageId, copy) {
      const file = fileOf(fileId);
      const original = file.pages.find((p) => p.id === pageId);
      if (!original) throw new Error(`Penpot mock: no page ${pageId} in ${fileId}`);
      file.pages.splice(copy.at, 0, { id: copy.id, name: copy.name, objects: new Map([...original.objects].map(([shapeId, shape]) => [shapeId, structuredClone(shape)])) });
      file.revn++;
      return () => {
        file.pages = file.pages.filter((p) => p.id !== copy.id);
      };
    },
    answerEmpty(command) {
      empty = command;
    },
    setText(fileId, shapeId, characters, pageId) {
      const file = fileOf(fileId);
      const shape = pageId === undefined ? shapeOf(fileId, shapeId) : file.pages.find((p) => p.id === pageId)?.objects.get(shapeId);
      if (!shape || shape.type !== 'text') throw new Error(`Penpot mock: no text shape ${shapeId} in ${fileId}`);
      shape.content = textContent(characters);
      file.revn++;
      file.modifiedAt = new Date().toISOString();
    },
    visibleTexts: (fileId) => fileOf(fileId).pages.reduce((n, p) => n + visible(p, ROOT), 0),
  };
}

/** The acceptance scenario's view of the mock, through `file_url`: Penpot holds no translations, import only. */
export async function penpotFixture(): Promise<RemoteFixture> {
  const mock = await startPenpotMock();
  return cmsFixture({
    connector: 'penpot',
    settings: { file_url: mock.exportUrl(mock.fileId) },
    secrets: { file_token: mock.exportToken },
    badSecrets: { file_token: 'revoked-export-token' },
    edit: (seedId, _locale, characters) => mock.setText(mock.fileId, mock.seedShape(seedId).id, characters),
    sourceCount: () => mock.visibleTexts(mock.fileId),
    server: mock,
  });
}
