/**
 * A local Figma REST API holding design files in memory: GET /v1/files/:key (with `depth`) and
 * GET /v1/files/:key/nodes?ids=.
 *
 * Shapes taken from: Figma's OpenAPI specification figma/rest-api-spec (openapi/openapi.yaml: GetFileResponse,
 * GetFileNodesResponse, DocumentNode/CanvasNode/FrameNode/TextNode with `absoluteBoundingBox` and TypeStyle
 * `textAutoResize` NONE | WIDTH_AND_HEIGHT | HEIGHT | TRUNCATE and `lineHeightPx`, the error payload
 * `{status, err}` for 403/404/429, the PersonalAccessToken header X-Figma-Token and OAuth2 Bearer, and the webhook
 * payloads WebhookFileUpdatePayload `{event_type, passcode, timestamp, webhook_id, file_key, file_name}`);
 * developers.figma.com/docs/rest-api/webhooks-events (the FILE_UPDATE example body), /docs/rest-api/errors and /docs/rest-api/rate-limits (429 with Retry-After in seconds,
 * X-Figma-Plan-Tier, X-Figma-Rate-Limit-Type). "Invalid token" is the text Figma answers a bad token with.
 * Figma's REST API has no endpoint that changes a text layer, so this mock has none either.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface FigmaRequest extends MockRequest {
  token: string | undefined;
  authorization: string | undefined;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface FigmaNode {
  id: string;
  name: string;
  type: string;
  visible?: boolean;
  characters?: string;
  absoluteBoundingBox?: Box;
  style?: Record<string, unknown>;
  children?: FigmaNode[];
  [extra: string]: unknown;
}
interface FigmaFile {
  key: string;
  name: string;
  version: string;
  lastModified: string;
  document: FigmaNode;
}

export interface FigmaMockOptions {
  /** A second file (another key) with a page "Onboarding" and a hidden frame. */
  secondFile?: boolean;
}

export interface FigmaMock extends RecordingServer<FigmaRequest> {
  token: string;
  oauthToken: string;
  fileKey: string;
  secondKey: string;
  /** The next `count` requests answer 429 as Figma's rate limit does. */
  rateLimitNext(count?: number): void;
  /** The TEXT node holding a SEED string. */
  seedNode(id: string): FigmaNode;
  node(key: string, id: string): FigmaNode | undefined;
  /** A designer changes a text layer: its characters, and the file's version and lastModified. */
  setText(key: string, nodeId: string, text: string): void;
  file(key: string): { version: string; lastModified: string };
  /** The FILE_UPDATE Figma posts after a change, with `passcode` as the webhook was created with. */
  notification(passcode: string, key: string, eventType?: string, at?: Date): { headers: Record<string, string>; body: string };
}

const TOKEN = 'figd_Qm3x7Kc2pT9vLw4nR8sY1bZ6hJ0fD5gA';
const OAUTH_TOKEN = 'figu_oauth_4Fh8Jk2Lm6Np0Qr3St7Vw1Xy5Za9Bc';
const FILE_KEY = 'Xq3vLp9TnW2kZr8hYc4mBd';
const SECOND_KEY = 'Hk7sDq1WmP5tLx9cVb3nRf';

const style = (textAutoResize?: string) => ({
  fontFamily: 'Inter',
  fontPostScriptName: 'Inter-Regular',
  fontWeight: 400,
  fontSize: 16,
  textAlignHorizontal: 'LEFT',
  textAlignVertical: 'TOP',
  letterSpacing: 0,
  lineHeightPx: 20,
  lineHeightPercent: 100,
  lineHeightUnit: 'PIXELS',
  ...(textAutoResize ? { textAutoResize } : {}),
});

function text(id: string, name: string, characters: string, box: Box, textAutoResize?: string, extra: Partial<FigmaNode> = {}): FigmaNode {
  return {
    id,
    name,
    type: 'TEXT',
    scrollBehavior: 'SCROLLS',
    blendMode: 'PASS_THROUGH',
    absoluteBoundingBox: box,
    absoluteRenderBounds: box,
    constraints: { vertical: 'TOP', horizontal: 'LEFT' },
    fills: [{ blendMode: 'NORMAL', type: 'SOLID', color: { r: 0, g: 0, b: 0, a: 1 } }],
    strokes: [],
    effects: [],
    characters,
    style: style(textAutoResize),
    characterStyleOverrides: [],
    styleOverrideTable: {},
    lineTypes: ['NONE'],
    lineIndentations: [0],
    ...extra,
  };
}

function frame(id: string, name: string, children: FigmaNode[], extra: Partial<FigmaNode> = {}): FigmaNode {
  return { id, name, type: 'FRAME', scrollBehavior: 'SCROLLS', blendMode: 'PASS_THROUGH', clipsContent: true, absoluteBoundingBox: { x: 0, y: 0, width: 390, height: 844 }, background: [], fills: [], strokes: [], effects: [], children, ...extra };
}

const canvas = (id: string, name: string, children: FigmaNode[]): FigmaNode => ({ id, name, type: 'CANVAS', scrollBehavior: 'SCROLLS', backgroundColor: { r: 0.96, g: 0.96, b: 0.96, a: 1 }, prototypeStartNodeID: null, flowStartingPoints: [], children });

/** The seed file: SEED strings are TEXT layers of the frame "Cart screen" on page "Checkout", with layers that are no strings. */
function seedFile(): FigmaFile {
  const [welcome, cart, checkout, farewell] = SEED.map((s) => s.source) as [string, string, string, string];
  const layers = [
    // A fixed box one line high: 200 px × 0.14 = 28 characters.
    text('1:3', 'Title', welcome, { x: 16, y: 40, width: 200, height: 20 }, 'NONE'),
    // Wraps at a fixed width and grows in height: two lines of 30 characters as the design stands.
    text('1:4', cart, cart, { x: 16, y: 80, width: 220, height: 40 }, 'HEIGHT'),
    // Auto width: the box follows the text, no limit.
    text('1:5', 'Button label', checkout, { x: 16, y: 700, width: 141, height: 20 }, 'WIDTH_AND_HEIGHT'),
    // No textAutoResize at all: Figma's default is a fixed box.
    text('1:6', 'Footer', farewell, { x: 16, y: 800, width: 100, height: 20 }),
    text('1:7', 'Draft note', 'Remove before launch', { x: 16, y: 820, width: 200, height: 20 }, 'NONE', { visible: false }),
    text('1:8', 'Spacer', '   ', { x: 16, y: 840, width: 50, height: 20 }, 'NONE'),
    frame('1:9', 'Old header', [text('1:10', 'Old title', 'Shop now', { x: 0, y: 0, width: 120, height: 20 }, 'NONE')], { type: 'GROUP', visible: false }),
  ];
  return {
    key: FILE_KEY,
    name: 'Store checkout',
    version: '5821334112',
    lastModified: '2026-11-02T09:00:00Z',
    document: { id: '0:0', name: 'Document', type: 'DOCUMENT', scrollBehavior: 'SCROLLS', children: [canvas('0:1', 'Checkout', [frame('1:2', 'Cart screen', layers)])] },
  };
}

function secondFile(): FigmaFile {
  return {
    key: SECOND_KEY,
    name: 'Onboarding flow',
    version: '5821330001',
    lastModified: '2026-10-28T15:30:00Z',
    document: {
      id: '0:0',
      name: 'Document',
      type: 'DOCUMENT',
      scrollBehavior: 'SCROLLS',
      children: [
        canvas('0:1', 'Onboarding', [
          frame('2:1', 'Step 1', [frame('2:2', 'Card', [text('2:3', 'Heading', 'Create your account', { x: 0, y: 0, width: 300, height: 24 }, 'NONE')])]),
          frame('2:4', 'Unused variant', [text('2:5', 'Heading', 'Sign up today', { x: 0, y: 0, width: 300, height: 24 }, 'NONE')], { visible: false }),
          text('2:6', 'Loose text', 'Skip for now', { x: 400, y: 0, width: 80, height: 20 }, 'WIDTH_AND_HEIGHT'),
        ]),
        canvas('0:2', 'Archive', [frame('3:1', 'Old step', [text('3:2', 'Heading', 'Welcome aboard', { x: 0, y: 0, width: 300, height: 24 }, 'NONE')])]),
      ],
    },
  };
}

function find(node: FigmaNode, id: string): FigmaNode | undefined {
  if (node.id === id) return node;
  for (const child of node.children ?? []) {
    const found = find(child, id);
    if (found) return found;
  }
  return undefined;
}

/** The tree cut at `depth` levels below the document (Figma's `depth` query parameter). */
function cut(node: FigmaNode, depth: number): FigmaNode {
  if (!node.children) return node;
  if (depth <= 0) {
    const { children: _children, ...rest } = node;
    return rest as FigmaNode;
  }
  return { ...node, children: node.children.map((c) => cut(c, depth - 1)) };
}

/** The two ways Figma takes a token: a personal access token in X-Figma-Token, an OAuth token as Bearer. */
const credentials = (req: IncomingMessage) => ({ token: req.headers['x-figma-token'] as string | undefined, authorization: req.headers.authorization });

export async function startFigmaMock(options: FigmaMockOptions = {}): Promise<FigmaMock> {
  const files = new Map<string, FigmaFile>([[FILE_KEY, seedFile()]]);
  if (options.secondFile) files.set(SECOND_KEY, secondFile());
  const rateLimited = new Armed<true>();

  function handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const { token, authorization } = credentials(req);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, headers);
    if (!(token === TOKEN || (token === undefined && authorization === `Bearer ${OAUTH_TOKEN}`))) return send(403, { status: 403, err: 'Invalid token' });
    if (rateLimited.take()) {
      return send(429, { status: 429, err: 'Rate limit exceeded' }, { 'retry-after': '1', 'x-figma-plan-tier': 'pro', 'x-figma-rate-limit-type': 'high', 'x-figma-upgrade-link': 'https://www.figma.com/pricing' });
    }
    const m = url.pathname.match(/^\/v1\/files\/([^/]+)(\/nodes)?$/);
    if (!m || req.method !== 'GET') return send(404, { status: 404, err: 'Not found' });
    const file = files.get(m[1]!);
    if (!file) return send(404, { status: 404, err: 'Not found' });
    const meta = { name: file.name, role: 'editor', lastModified: file.lastModified, editorType: 'figma', thumbnailUrl: `https://s3-alpha.figma.com/thumbnails/${file.key}`, version: file.version, linkAccess: 'inherit' };
    if (m[2]) {
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
      if (ids.length === 0) return send(400, { status: 400, err: 'Missing required parameter: ids' });
      const nodes = Object.fromEntries(ids.map((id) => [id, find(file.document, id) ? { document: find(file.document, id), components: {}, componentSets: {}, schemaVersion: 0, styles: {} } : null]));
      return send(200, { ...meta, nodes });
    }
    const depth = url.searchParams.get('depth');
    const document = depth ? cut(file.document, Number(depth)) : file.document;
    send(200, { ...meta, document, components: {}, componentSets: {}, schemaVersion: 0, styles: {} });
  }

  const server = await serveRecording(handle, { extra: credentials });
  const fileOf = (key: string) => {
    const found = files.get(key);
    if (!found) throw new Error(`Figma mock: no file '${key}'`);
    return found;
  };

  return {
    ...server,
    token: TOKEN,
    oauthToken: OAUTH_TOKEN,
    fileKey: FILE_KEY,
    secondKey: SECOND_KEY,
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    seedNode(id) {
      const index = SEED.findIndex((s) => s.id === id);
      if (index < 0) throw new Error(`Figma mock: no seed string '${id}'`);
      return find(fileOf(FILE_KEY).document, `1:${index + 3}`)!;
    },
    node: (key, id) => find(fileOf(key).document, id),
    setText(key, nodeId, characters) {
      const file = fileOf(key);
      const node = find(file.document, nodeId);
      if (!node || node.type !== 'TEXT') throw new Error(`Figma mock: no text layer ${nodeId} in ${key}`);
      node.characters = characters;
      file.version = String(Number(file.version) + 1);
      file.lastModified = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    },
    file: (key) => ({ version: fileOf(key).version, lastModified: fileOf(key).lastModified }),
    notification(passcode, key, eventType = 'FILE_UPDATE', at = new Date()) {
      const body = JSON.stringify({ event_type: eventType, file_key: key, file_name: files.get(key)?.name ?? 'Untitled', passcode, timestamp: at.toISOString().replace(/\.\d+Z$/, 'Z'), webhook_id: '884211' });
      return { headers: { 'content-type': 'application/json' }, body };
    },
  };
}

/** The acceptance scenario's view of the mock. Figma holds no translations and cannot be written: import only. */
export async function figmaFixture(): Promise<RemoteFixture> {
  const mock = await startFigmaMock();
  const visibleText = (node: FigmaNode): number => (node.visible === false ? 0 : node.type === 'TEXT' ? ((node.characters ?? '').trim() === '' ? 0 : 1) : (node.children ?? []).reduce((n, c) => n + visibleText(c), 0));
  return cmsFixture({
    connector: 'figma',
    settings: { api_url: mock.url, file_keys: [mock.fileKey] },
    secrets: { token: mock.token },
    badSecrets: { token: 'figd_revoked_000000000000000000000000' },
    edit: (id, _locale, characters) => mock.setText(mock.fileKey, mock.seedNode(id).id, characters),
    sourceCount() {
      const root = mock.node(mock.fileKey, '0:0');
      return root ? visibleText(root) : 0;
    },
    webhook: (_id, secret) => mock.notification(secret, mock.fileKey),
    server: mock,
  });
}
