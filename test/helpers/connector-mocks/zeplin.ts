/**
 * A local Zeplin API v1 holding projects in memory: GET /v1/projects/:id, GET /v1/projects/:id/screen_sections and
 * GET /v1/projects/:id/screens (limit/offset, at most 100), GET /v1/projects/:id/screens/:screen/versions/latest;
 * and Zeplin's signed webhook deliveries.
 *
 * Shapes taken from: Zeplin's generated client zeplin/javascript-sdk (src/apis/screens-api.ts and projects-api.ts for
 * the paths and query parameters; src/models/project.ts, screen.ts, screen-section.ts, screen-version.ts, layer.ts with
 * `type` text | shape | group, `source_id`, `content`, `rect` and nested `layers`, bounding-rectangle.ts,
 * error-response.ts `{message, detail?, code?}`; src/utilities/webhooks.ts: the signature is the hex HMAC-SHA256 of
 * `<delivery timestamp>.<JSON body>`); docs.zeplin.dev: /reference/pagination (limit default 30, maximum 100, an
 * offset past the end gives an empty list), /reference/rate-limiting (200 requests a minute, 429 "Rate limit
 * exceeded", headers Zeplin-RateLimit-Limit/-Remaining/-Reset in epoch milliseconds), /docs/receiving-webhook-events
 * (headers Zeplin-Webhook-Id, Zeplin-Delivery-Id, Zeplin-Delivery-Timestamp, Zeplin-Attempt-Number, Zeplin-Signature,
 * Zeplin-Version, User-Agent Zeplin-Webhooks; body {event, action, timestamp, resource, context, actor}),
 * /reference/project_screen_version_event (context {project, screen}), /docs/securing-webhook-requests.
 *
 * Guesses, not confirmed by any source: the texts of the 401 and 404 messages ("Invalid access token", "Project not
 * found", "Screen not found"); whether a 429 carries Retry-After (not sent here, so the client's own backoff applies);
 * the delivery timestamp's unit (milliseconds here, like Zeplin-RateLimit-Reset); that a new version gets new Zeplin
 * layer ids while the design tool's `source_id` stays (what the connector's keys rely on least: it keys by source_id).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface ZeplinRequest extends MockRequest {
  authorization: string | undefined;
}

export interface ZeplinLayer {
  id: string;
  source_id?: string;
  type: 'text' | 'shape' | 'group';
  name: string;
  content?: string;
  rect: { x: number; y: number; width: number; height: number; absolute: { x: number; y: number } };
  layers?: ZeplinLayer[];
  [extra: string]: unknown;
}
interface Screen {
  id: string;
  name: string;
  section?: { id: string };
  variant?: { value: string; group: { id: string; name: string } };
  created: number;
  versions: { id: string; created: number; layers: ZeplinLayer[] }[];
}
interface Project {
  id: string;
  name: string;
  sections: { id: string; name: string; created: number }[];
  screens: Screen[];
}

export interface ZeplinMockOptions {
  /** A second project with 105 screens of one text layer each (more than a page). */
  secondProject?: boolean;
  /** A screen "Products" in the seed project with two instances of one symbol, whose text layers share source ids. */
  symbolScreen?: boolean;
}

export interface ZeplinMock extends RecordingServer<ZeplinRequest> {
  token: string;
  projectId: string;
  secondId: string;
  cartScreen: string;
  /** The screen of the `symbolScreen` option. */
  symbolScreen: string;
  /** A designer exports a new version of a screen with nothing changed: new Zeplin layer ids, the same layers. */
  reexportScreen(screenId: string): void;
  /** The next `count` requests answer 429 as Zeplin's rate limit does. */
  rateLimitNext(count?: number): void;
  /** The next answer says the window is used up (Zeplin-RateLimit-Remaining 0) and resets in `ms`. */
  exhaustWindow(ms: number): void;
  /** The (screen id, source id) of the text layer holding a SEED string. */
  seedLayer(id: string): { screen: string; sourceId: string };
  /** A designer exports a new version of a screen with one text layer's content changed. */
  setText(screenId: string, sourceId: string, text: string): void;
  /** Deletes a screen just after the next screen list is answered (as a person might mid-sync). */
  deleteAfterList(screenId: string): void;
  textLayers(projectId: string): ZeplinLayer[];
  /** A delivery as Zeplin posts it, signed with `secret`. */
  delivery(secret: string, event: Record<string, unknown>, at?: number): { headers: Record<string, string>; body: string };
  /** The project.screen.version created event for a screen of a project. */
  screenVersionEvent(projectId: string, screenId: string): Record<string, unknown>;
}

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.zeplin-pat.Qm3x7Kc2pT9vLw4nR8sY1bZ6hJ0fD5gA';
const PROJECT_ID = '5db81e73e1e36ee19f138c1a';
const SECOND_ID = '5db81e73e1e36ee19f13a0b2';
const CART_SCREEN = '5dbad85a76ea51c1f35b6f69';
const CREATED = 1572347818;

const oid = () => randomBytes(12).toString('hex');
const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height, absolute: { x, y } });

function text(sourceId: string, name: string, content: string, box: ReturnType<typeof rect>, lineHeight = 20): ZeplinLayer {
  return {
    id: oid(),
    source_id: sourceId,
    type: 'text',
    name,
    content,
    rect: box,
    opacity: 1,
    blend_mode: 'normal',
    rotation: 0,
    exportable: false,
    fills: [],
    borders: [],
    shadows: [],
    text_styles: [{ range: { location: 0, length: content.length }, style: { postscript_name: 'Inter-Regular', font_family: 'Inter', font_size: 16, font_weight: 400, font_style: 'normal', font_stretch: 1, line_height: lineHeight, text_align: 'left', color: { r: 0, g: 0, b: 0, a: 1 } } }],
  };
}
const group = (sourceId: string, name: string, layers: ZeplinLayer[]): ZeplinLayer => ({ id: oid(), source_id: sourceId, type: 'group', name, rect: rect(0, 0, 390, 200), opacity: 1, layers });
const shape = (sourceId: string, name: string): ZeplinLayer => ({ id: oid(), source_id: sourceId, type: 'shape', name, rect: rect(0, 0, 390, 1), opacity: 1, fills: [{ type: 'color', color: { r: 230, g: 230, b: 230, a: 1 } }] });

/** New Zeplin ids for every layer, the design tool's ids kept: a re-export. */
function reexport(layers: ZeplinLayer[]): ZeplinLayer[] {
  return layers.map((l) => ({ ...structuredClone(l), id: oid(), ...(l.layers ? { layers: reexport(l.layers) } : {}) }));
}

/** The seed project: SEED strings are text layers of the screen "Cart" (section "Checkout"), with layers that are no strings. */
function seedProject(): Project {
  const [welcome, cart, checkout, farewell] = SEED.map((s) => s.source) as [string, string, string, string];
  const layers = [
    group('1:2', 'Header', [text('1:3', 'Title', welcome, rect(16, 40, 200, 20)), shape('1:11', 'Divider')]),
    text('1:4', cart, cart, rect(16, 80, 220, 40)),
    text('1:5', 'Button label', checkout, rect(16, 700, 141, 20)),
    text('1:6', 'Footer', farewell, rect(16, 800, 100, 20)),
    text('1:8', 'Spacer', '   ', rect(16, 840, 50, 20)),
  ];
  const screen = (id: string, name: string, l: ZeplinLayer[], extra: Partial<Screen> = {}): Screen => ({ id, name, created: CREATED, versions: [{ id: oid(), created: CREATED, layers: l }], ...extra });
  return {
    id: PROJECT_ID,
    name: 'Store checkout',
    sections: [{ id: '5db81e6e6a4462065f04d932', name: 'Checkout', created: CREATED }],
    screens: [
      screen(CART_SCREEN, 'Cart', layers, { section: { id: '5db81e6e6a4462065f04d932' } }),
      // An empty screen (no version exported yet) and one whose only layer is a shape.
      { id: '5dbad85a76ea51c1f35b7000', name: 'Placeholder', created: CREATED, versions: [] },
      screen('5dbad85a76ea51c1f35b7001', 'Splash', [shape('9:1', 'Logo')]),
    ],
  };
}

const SYMBOL_SCREEN = '5dbad85a76ea51c1f35b7002';

/**
 * Two instances of the symbol "Product card": each instance has its own source id, but the text layers inside are the
 * master's, so both instances' title and price carry the same source ids (as Sketch and Figma export them).
 */
function symbolScreen(): Screen {
  const card = (instance: string, title: string, price: string) =>
    group(instance, 'Product card', [text('7:1', 'Product title', title, rect(0, 0, 160, 20)), text('7:2', 'Price', price, rect(0, 24, 80, 20))]);
  const layers = [text('3:1', 'Heading', 'Popular products', rect(16, 16, 300, 24), 24), card('3:10', 'Blue mug', '12 €'), card('3:20', 'Red mug', '14 €')];
  return { id: SYMBOL_SCREEN, name: 'Products', created: CREATED, versions: [{ id: oid(), created: CREATED, layers }] };
}

function secondProject(): Project {
  const screens: Screen[] = [];
  for (let i = 0; i < 105; i++) {
    const id = `6e00000000000000000${String(i).padStart(5, '0')}`;
    const variant = i === 0 ? { variant: { value: 'Dark', group: { id: '607437cd62d37a0bc869fc63', name: 'Login' } } } : {};
    screens.push({ id, name: i === 0 ? 'Login dark' : `Step ${i}`, created: CREATED + i, versions: [{ id: oid(), created: CREATED + i, layers: [text('2:1', 'Heading', `Step ${i} of 105`, rect(0, 0, 300, 24), 24)] }], ...variant });
  }
  return { id: SECOND_ID, name: 'Onboarding flow', sections: [], screens };
}

function walk(layers: ZeplinLayer[], visit: (layer: ZeplinLayer) => void): void {
  for (const layer of layers) {
    visit(layer);
    if (layer.layers) walk(layer.layers, visit);
  }
}

const screenJson = (s: Screen) => ({
  id: s.id,
  name: s.name,
  description: '',
  tags: [],
  image: { width: 390, height: 844, original_url: `https://cdn.zeplin.io/${s.id}.png`, thumbnails: {} },
  created: s.created,
  updated: s.versions.at(-1)?.created ?? s.created,
  number_of_versions: s.versions.length,
  number_of_notes: 0,
  number_of_annotations: 0,
  ...(s.section ? { section: s.section } : {}),
  ...(s.variant ? { variant: s.variant } : {}),
});

const projectJson = (p: Project) => ({
  id: p.id,
  name: p.name,
  description: '',
  platform: 'ios',
  status: 'active',
  scene_url: `https://scene.zeplin.io/project/${p.id}`,
  created: CREATED,
  updated: CREATED,
  number_of_members: 3,
  number_of_screens: p.screens.length,
  number_of_components: 0,
  number_of_connected_components: 0,
  number_of_text_styles: 0,
  number_of_colors: 0,
  number_of_spacing_tokens: 0,
});

const credentials = (req: IncomingMessage) => ({ authorization: req.headers.authorization });

export async function startZeplinMock(options: ZeplinMockOptions = {}): Promise<ZeplinMock> {
  const projects = new Map<string, Project>([[PROJECT_ID, seedProject()]]);
  if (options.secondProject) projects.set(SECOND_ID, secondProject());
  if (options.symbolScreen) projects.get(PROJECT_ID)!.screens.push(symbolScreen());
  const rateLimited = new Armed<true>();
  const exhausted = new Armed<number>();
  const afterList: string[] = [];

  function handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const limitHeaders = (remaining: number, resetIn = 60_000) => ({ 'zeplin-ratelimit-limit': '200', 'zeplin-ratelimit-remaining': String(remaining), 'zeplin-ratelimit-reset': String(Date.now() + resetIn) });
    const window = exhausted.take();
    const send = (status: number, body: unknown) => sendJson(res, status, body, window === undefined ? limitHeaders(150) : limitHeaders(0, window));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'Invalid access token', code: 'invalid_token' });
    if (rateLimited.take()) return sendJson(res, 429, { message: 'Rate limit exceeded' }, limitHeaders(0, 1000));
    if (req.method !== 'GET') return send(405, { message: 'Method not allowed' });
    const m = url.pathname.match(/^\/v1\/projects\/([^/]+)(?:\/(screen_sections|screens)(?:\/([^/]+)\/versions\/latest)?)?$/);
    if (!m) return send(404, { message: 'Not found' });
    const project = projects.get(m[1]!);
    if (!project) return send(404, { message: 'Project not found', detail: `No project with id ${m[1]} that you can access.` });
    if (!m[2]) return send(200, projectJson(project));
    const limit = Number(url.searchParams.get('limit') ?? 30);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    if (!(limit >= 1 && limit <= 100)) return send(422, { message: 'Invalid parameters', detail: '"limit" must be less than or equal to 100' });
    const page = <T>(items: T[]) => items.slice(offset, offset + limit);
    if (m[2] === 'screen_sections') return send(200, page(project.sections).map((s) => ({ ...s, description: '' })));
    if (!m[3]) {
      send(200, page(project.screens).map(screenJson));
      for (const id of afterList.splice(0)) project.screens = project.screens.filter((s) => s.id !== id);
      return;
    }
    const screen = project.screens.find((s) => s.id === m[3]);
    const version = screen?.versions.at(-1);
    if (!screen || !version) return send(404, { message: 'Screen not found' });
    send(200, { id: version.id, creator: { id: '5d9caaecb4a3fa9bc9718686', username: 'zozo', emotar: '🍎' }, image_url: `https://cdn.zeplin.io/${version.id}.png`, source: 'figma', width: 390, height: 844, density_scale: 2, links: [], layers: version.layers, assets: [], created: version.created });
  }

  const server = await serveRecording(handle, { extra: credentials });
  const projectOf = (id: string) => {
    const found = projects.get(id);
    if (!found) throw new Error(`Zeplin mock: no project '${id}'`);
    return found;
  };
  const screenOf = (screenId: string) => {
    for (const p of projects.values()) {
      const s = p.screens.find((x) => x.id === screenId);
      if (s) return { project: p, screen: s };
    }
    throw new Error(`Zeplin mock: no screen '${screenId}'`);
  };

  return {
    ...server,
    token: TOKEN,
    projectId: PROJECT_ID,
    secondId: SECOND_ID,
    cartScreen: CART_SCREEN,
    symbolScreen: SYMBOL_SCREEN,
    reexportScreen(screenId) {
      const { screen } = screenOf(screenId);
      screen.versions.push({ id: oid(), created: Math.floor(Date.now() / 1000), layers: reexport(screen.versions.at(-1)!.layers) });
    },
    rateLimitNext: (count = 1) => rateLimited.arm(true, count),
    exhaustWindow: (ms) => exhausted.arm(ms, 1),
    seedLayer(id) {
      const index = SEED.findIndex((s) => s.id === id);
      if (index < 0) throw new Error(`Zeplin mock: no seed string '${id}'`);
      return { screen: CART_SCREEN, sourceId: `1:${index + 3}` };
    },
    setText(screenId, sourceId, content) {
      const { screen } = screenOf(screenId);
      const layers = reexport(screen.versions.at(-1)!.layers);
      let found = false;
      walk(layers, (l) => {
        if (l.source_id === sourceId && l.type === 'text') {
          l.content = content;
          found = true;
        }
      });
      if (!found) throw new Error(`Zeplin mock: no text layer ${sourceId} on screen ${screenId}`);
      screen.versions.push({ id: oid(), created: Math.floor(Date.now() / 1000), layers });
    },
    deleteAfterList: (screenId) => void afterList.push(screenId),
    textLayers(projectId) {
      const found: ZeplinLayer[] = [];
      for (const s of projectOf(projectId).screens) walk(s.versions.at(-1)?.layers ?? [], (l) => l.type === 'text' && found.push(l));
      return found;
    },
    delivery(secret, event, at = Date.now()) {
      const body = JSON.stringify(event);
      const timestamp = String(at);
      const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
      return {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Zeplin-Webhooks',
          'zeplin-webhook-id': '5fd7cbd8d21f1f8a2d1fd0a3',
          'zeplin-delivery-id': oid(),
          'zeplin-delivery-timestamp': timestamp,
          'zeplin-attempt-number': '1',
          'zeplin-signature': signature,
          'zeplin-version': 'v1.0',
        },
        body,
      };
    },
    screenVersionEvent(projectId, screenId) {
      const project = projects.get(projectId);
      const screen = project?.screens.find((s) => s.id === screenId);
      const version = screen?.versions.at(-1);
      return {
        event: 'project.screen.version',
        action: 'created',
        timestamp: Math.floor(Date.now() / 1000),
        resource: { id: version?.id ?? oid(), type: 'ScreenVersionSummary', data: { id: version?.id ?? oid(), source: 'figma', width: 390, height: 844, density_scale: 2, links: [], created: version?.created ?? CREATED } },
        context: { project: project ? projectJson(project) : { id: projectId }, screen: screen ? screenJson(screen) : { id: screenId } },
        actor: { user: { id: '5d9caaecb4a3fa9bc9718686', username: 'zozo', emotar: '🍎' } },
      };
    },
  };
}

/** The acceptance scenario's view of the mock. Zeplin holds no translations and cannot be written: import only. */
export async function zeplinFixture(): Promise<RemoteFixture> {
  const mock = await startZeplinMock();
  return cmsFixture({
    connector: 'zeplin',
    settings: { api_url: mock.url, project_ids: [mock.projectId] },
    secrets: { token: mock.token },
    badSecrets: { token: 'revoked-zeplin-token' },
    edit(id, _locale, content) {
      const { screen, sourceId } = mock.seedLayer(id);
      mock.setText(screen, sourceId, content);
    },
    sourceCount: () => mock.textLayers(mock.projectId).filter((l) => (l.content ?? '').trim() !== '').length,
    webhook: (_id, secret) => mock.delivery(secret, mock.screenVersionEvent(mock.projectId, mock.cartScreen)),
    server: mock,
  });
}
