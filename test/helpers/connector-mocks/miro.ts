/**
 * A local Miro REST API v2 holding boards and their items in memory: GET /v2/boards/:board_id and
 * GET /v2/boards/:board_id/items (`limit` 10–50, `type`, `cursor`).
 *
 * Shapes taken from: Miro's OpenAPI document in miroapp/api-clients (packages/generator/spec.json: operation get-items
 * with `limit` a string of 10 to 50 and the `type` enum; GenericItemCursorPaged `{data, total, size, cursor, limit,
 * links}`; GenericItem `{id, type, data, geometry {width, height}, position, parent {id}, createdAt, createdBy,
 * modifiedAt, modifiedBy}`; TextData/StickyNoteData/ShapeData `content` and FrameData `title`; BoardWithLinks `{id,
 * name, …}`; the error bodies Error400/401/403/404/429 `{status, code, message, type: "error"}` with the codes
 * invalidParameters, tokenNotProvided, notFound, tooManyRequests; the OAuth2 Bearer security scheme with boards:read);
 * developers.miro.com/v1.0/reference/ratelimiting (the 429 body `{"status":429,"code":"tooManyRequests","message":
 * "Request rate limit exceed","context":null,"type":"error"}` and X-RateLimit-Limit/Remaining/Reset, the reset a UNIX
 * epoch in seconds; credits per minute per user and app).
 * Guesses: the exact `message` texts of 401 ("Token not found", code tokenNotFound) and 404 ("Board not found"); the
 * cursor's form (opaque in Miro, base64 of a type and an offset here); that a 429 carries no Retry-After; the HTML
 * Miro keeps in `content` (`<p>` paragraphs, `<br>`, `<strong>`, entities), as Miro's editor shows it.
 * Miro's REST API can change an item's content (PATCH), but the connector only reads, so this mock has no writes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface MiroRequest extends MockRequest {
  authorization: string | undefined;
}

export interface MiroItem {
  id: string;
  type: string;
  data: Record<string, unknown>;
  geometry?: { width: number; height?: number };
  position: { x: number; y: number; origin: 'center'; relativeTo: 'canvas_center' | 'parent_top_left' };
  parent?: { id: string };
  [extra: string]: unknown;
}
interface Board {
  id: string;
  name: string;
  items: MiroItem[];
}

export interface MiroMockOptions {
  /** A second board "Retro" with 55 sticky notes (two pages), rich text and no frames. */
  secondBoard?: boolean;
}

export interface MiroMock extends RecordingServer<MiroRequest> {
  token: string;
  boardId: string;
  secondId: string;
  /** The next `count` requests answer 429 as Miro's credit limit does. */
  rateLimitNext(count?: number): void;
  /** The item holding a SEED string. */
  seedItem(id: string): MiroItem;
  item(boardId: string, itemId: string): MiroItem | undefined;
  items(boardId: string): MiroItem[];
  /** Someone edits an item's text on the board (Miro's HTML content). */
  setContent(boardId: string, itemId: string, html: string): void;
}

const TOKEN = 'eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_Kc2pT9vLw4nR8sY1bZ6hJ0fD5gA';
const BOARD_ID = 'uXjVOD6LSME=';
const SECOND_ID = 'uXjVKq3mB_x=';
const USER = { id: '3458764517517852417', type: 'user' };
const ITEM_TYPES = new Set(['text', 'shape', 'sticky_note', 'image', 'document', 'card', 'app_card', 'preview', 'frame', 'embed', 'doc_format', 'data_table_format']);

const error = (status: number, code: string, message: string) => ({ status, code, message, type: 'error' });

function item(id: string, type: string, data: Record<string, unknown>, geometry: { width: number; height?: number } | undefined, parent?: string): MiroItem {
  return {
    id,
    type,
    data,
    style: type === 'sticky_note' ? { fillColor: 'light_yellow', textAlign: 'center', textAlignVertical: 'top' } : { fontSize: '14', textAlign: 'left' },
    position: { x: 120, y: 80, origin: 'center', relativeTo: parent ? 'parent_top_left' : 'canvas_center' },
    ...(geometry ? { geometry } : {}),
    createdAt: '2026-10-12T09:14:02Z',
    createdBy: USER,
    modifiedAt: '2026-11-02T16:40:51Z',
    modifiedBy: USER,
    ...(parent ? { parent: { id: parent } } : {}),
  };
}

const FRAME = '3458764612000000001';
const seedItemId = (index: number) => `345876461200000010${index}`;

/** The seed board: SEED strings as a sticky note, a text and a shape in the frame "Checkout flow", and a loose sticky note. */
function seedBoard(): Board {
  const [welcome, cart, checkout, farewell] = SEED.map((s) => s.source) as [string, string, string, string];
  return {
    id: BOARD_ID,
    name: 'Store launch',
    items: [
      item(FRAME, 'frame', { format: 'custom', title: 'Checkout flow', type: 'freeform', showContent: true }, { width: 1600, height: 900 }),
      item(seedItemId(0), 'sticky_note', { content: `<p>${welcome}</p>`, shape: 'square' }, { width: 199, height: 228 }, FRAME),
      item(seedItemId(1), 'text', { content: `<p>${cart}</p>` }, { width: 240 }, FRAME),
      item(seedItemId(2), 'shape', { content: `<p><strong>${checkout}</strong></p>`, shape: 'round_rectangle' }, { width: 180, height: 60 }, FRAME),
      item(seedItemId(3), 'sticky_note', { content: `<p>${farewell}</p>`, shape: 'rectangle' }, { width: 350, height: 228 }),
      item('3458764612000000201', 'sticky_note', { content: '<p></p>', shape: 'square' }, { width: 199, height: 228 }, FRAME),
      item('3458764612000000202', 'shape', { content: '', shape: 'circle' }, { width: 80, height: 80 }),
      item('3458764612000000203', 'image', { title: 'Hero banner', imageUrl: 'https://api.miro.com/v2/boards/uXjVOD6LSME=/resources/images/3458764612000000203' }, { width: 640, height: 360 }, FRAME),
      item('3458764612000000204', 'card', { title: 'Ship the checkout', description: 'Owner: payments team' }, { width: 320, height: 94 }),
    ],
  };
}

function secondBoard(): Board {
  const notes = Array.from({ length: 55 }, (_, i) => item(`34587646120000030${String(i).padStart(2, '0')}`, 'sticky_note', { content: `<p>Idea ${i + 1}</p>`, shape: 'square' }, { width: 199, height: 228 }));
  return {
    id: SECOND_ID,
    name: 'Retro',
    items: [
      item('3458764612000000401', 'text', { content: '<p>Line one<br>Line two</p><p>Tom &amp; Jerry&#39;s &lt;b&gt; tag</p>' }, { width: 300 }),
      item('3458764612000000402', 'text', { content: '<ul><li>First</li><li><em>Second</em></li></ul>' }, { width: 140 }),
      ...notes,
    ],
  };
}

/** Miro's cursor is opaque; this one carries the type filter and the offset, and is refused for another filter. */
const cursorOf = (type: string, offset: number) => Buffer.from(`${type}:${offset}`).toString('base64url');
function offsetOf(cursor: string, type: string): number | undefined {
  const [of, offset] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  return of === type && /^\d+$/.test(offset ?? '') ? Number(offset) : undefined;
}

const stripped = (html: string) => html.replace(/<[^>]*>/g, '').trim();

export async function startMiroMock(options: MiroMockOptions = {}): Promise<MiroMock> {
  const boards = new Map<string, Board>([[BOARD_ID, seedBoard()]]);
  if (options.secondBoard) boards.set(SECOND_ID, secondBoard());
  const rateLimited = new Armed<true>();

  function handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => sendJson(res, status, body, headers);
    const authorization = req.headers.authorization;
    if (!authorization) return send(401, error(401, 'tokenNotProvided', 'No authorization was provided'));
    if (authorization !== `Bearer ${TOKEN}`) return send(401, error(401, 'tokenNotFound', 'Token not found'));
    const reset = String(Math.floor(Date.now() / 1000) + 1);
    if (rateLimited.take()) {
      return send(429, { status: 429, code: 'tooManyRequests', message: 'Request rate limit exceed', context: null, type: 'error' }, { 'x-ratelimit-limit': '100000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset });
    }
    const credits = { 'x-ratelimit-limit': '100000', 'x-ratelimit-remaining': '99900', 'x-ratelimit-reset': reset };
    const m = url.pathname.match(/^\/v2\/boards\/([^/]+)(\/items)?$/);
    if (!m || req.method !== 'GET') return send(404, error(404, 'notFound', 'Not found'));
    const board = boards.get(decodeURIComponent(m[1]!));
    if (!board) return send(404, error(404, 'notFound', 'Board not found'), credits);
    const self = `${url.origin}/v2/boards/${encodeURIComponent(board.id)}`;
    if (!m[2]) {
      return send(200, { id: board.id, type: 'board', name: board.name, description: '', viewLink: `https://miro.com/app/board/${board.id}/`, createdAt: '2026-10-01T08:00:00Z', modifiedAt: '2026-11-02T16:40:51Z', owner: { id: USER.id, type: 'user', name: 'Dana Park' }, links: { self } }, credits);
    }
    const limitText = url.searchParams.get('limit') ?? '10';
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 10 || limit > 50) return send(400, error(400, 'invalidParameters', `Parameter 'limit' must be between 10 and 50, got '${limitText}'`), credits);
    const type = url.searchParams.get('type') ?? '';
    if (type !== '' && !ITEM_TYPES.has(type)) return send(400, error(400, 'invalidParameters', `Invalid value '${type}' of parameter 'type'`), credits);
    const cursor = url.searchParams.get('cursor');
    const offset = cursor ? offsetOf(cursor, type) : 0;
    if (offset === undefined) return send(400, error(400, 'invalidParameters', 'Invalid cursor'), credits);
    const matching = board.items.filter((i) => type === '' || i.type === type);
    const page = matching.slice(offset, offset + limit).map((i) => ({ ...i, links: { self: `${self}/items/${i.id}` }, ...(i.parent ? { parent: { ...i.parent, links: { self: `${self}/items/${i.parent.id}` } } } : {}) }));
    const next = offset + limit < matching.length ? cursorOf(type, offset + limit) : undefined;
    const link = (c: string | undefined) => `${self}/items?limit=${limit}${type ? `&type=${type}` : ''}${c ? `&cursor=${c}` : ''}`;
    send(200, { data: page, total: matching.length, size: page.length, limit, ...(next ? { cursor: next } : {}), links: { self: link(cursor ?? undefined), ...(next ? { next: link(next) } : {}) } }, credits);
  }

  const server = await serveRecording(handle, { extra: (req) => ({ authorization: req.headers.authorization }) });
  const boardOf = (id: string) => {
    const found = boards.get(id);
    if (!found) throw new Error(`Miro mock: no board '${id}'`);
    return found;
  };
  const find = (boardId: string, itemId: string) => boardOf(boardId).items.find((i) => i.id === itemId);

  return {
    ...server,
    token: TOKEN,
    boardId: BOARD_ID,
    secondId: SECOND_ID,
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    seedItem(id) {
      const index = SEED.findIndex((s) => s.id === id);
      if (index < 0) throw new Error(`Miro mock: no seed string '${id}'`);
      return find(BOARD_ID, seedItemId(index))!;
    },
    item: find,
    items: (boardId) => boardOf(boardId).items,
    setContent(boardId, itemId, html) {
      const found = find(boardId, itemId);
      if (!found || !('content' in found.data)) throw new Error(`Miro mock: no item with content ${itemId} on ${boardId}`);
      found.data.content = html;
      found.modifiedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    },
  };
}

/** The acceptance scenario's view of the mock. Miro holds no translations here and is never written: import only. */
export async function miroFixture(): Promise<RemoteFixture> {
  const mock = await startMiroMock();
  const textItems = new Set(['text', 'sticky_note', 'shape']);
  return cmsFixture({
    connector: 'miro',
    settings: { api_url: mock.url, board_ids: [mock.boardId] },
    secrets: { access_token: mock.token },
    badSecrets: { access_token: 'eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_revoked000000000000000000' },
    edit: (id, _locale, text) => mock.setContent(mock.boardId, mock.seedItem(id).id, `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`),
    sourceCount: () => mock.items(mock.boardId).filter((i) => textItems.has(i.type) && stripped(String(i.data.content ?? '')) !== '').length,
    server: mock,
  });
}
