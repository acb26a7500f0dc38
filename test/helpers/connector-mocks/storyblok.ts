/**
 * A local Storyblok Management API (v1) holding one space in memory, in Storyblok's own shapes.
 *
 * Shapes taken from: storyblok.com/docs/api/management (spaces: `{space:{id, name, languages:[{code, name}],
 * default_lang_name}}`; components: `{components:[{name, schema:{<field>:{type, pos, translatable, max_length,
 * description, display_name}}, is_root, is_nestable}]}`; stories: list `{stories:[…]}` without content, `story_only=1`
 * leaving folders out, one story `{story:{id, name, slug, full_slug, content:{_uid, component, …}}}`, update
 * `PUT … {story:{…}}`), /getting-started/pagination (`page`, `per_page` up to 100, response headers `total` and
 * `per-page`), /getting-started/errors (401, 404, 422, 429 with exponential backoff advised), /getting-started/
 * authentication (`Authorization: <personal access token>`, no scheme); field-level translation from
 * storyblok.com/docs/guide/in-depth/internationalization (`<field>__i18n__<code>`); webhooks from
 * storyblok.com/docs/concepts/webhooks (`{text, action, space_id, story_id, full_slug}`, `webhook-signature` = hex
 * HMAC-SHA1 of the body with the webhook secret). The error bodies' wording (`{"error":"Unauthorized"}`) is what
 * clients report, not from Storyblok's reference, which documents only the status codes.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson as send } from './loopback.js';

export type StoryblokRequest = MockRequest;

type Blok = { _uid: string; component: string } & Record<string, unknown>;
interface MockStory {
  id: number;
  name: string;
  slug: string;
  content: Blok;
  updated_at: string;
}

export interface StoryblokMockOptions {
  /** The most stories a page holds, whatever `per_page` asks (Storyblok's own maximum is 100). */
  maxPerPage?: number;
  /** Gives the `welcome` story a nested `teaser` blok with a translatable headline. */
  nested?: boolean;
  /** The space's languages besides the default (English). */
  languages?: string[];
}

export interface StoryblokMock extends RecordingServer<StoryblokRequest> {
  token: string;
  spaceId: number;
  stories: Map<number, MockStory>;
  /** The story id of a SEED string. */
  storyId(seedId: string): number;
  rateLimitNext(seconds: number): void;
  /** A person edits the story's `title` in a language ('' for the default) and saves. */
  edit(seedId: string, language: string, text: string): void;
  /** The webhook Storyblok sends when the story is published, signed with `secret`. */
  webhook(seedId: string, secret: string, action?: string): { headers: Record<string, string>; body: string };
}

const TOKEN = 'xT7Bq2LmNp9vR4sKdWz8Yg-285013-Hq3mZbVx0kPfA';
const SPACE = 285013;
const STAMP = '2026-11-20T09:12:44.000Z';

const COMPONENTS = [
  {
    id: 4120001,
    name: 'article',
    display_name: 'Article',
    schema: {
      title: { type: 'text', pos: 0, translatable: true, required: true, max_length: '120', display_name: 'Headline', description: 'The headline at the top of the page' },
      internal_note: { type: 'textarea', pos: 1, translatable: false, display_name: 'Internal note' },
      hero: { type: 'richtext', pos: 2, translatable: true },
      body: { type: 'bloks', pos: 3, restrict_components: true, component_whitelist: ['teaser'] },
    },
    is_root: true,
    is_nestable: false,
    created_at: STAMP,
  },
  { id: 4120002, name: 'teaser', display_name: 'Teaser', schema: { headline: { type: 'text', pos: 0, translatable: true } }, is_root: false, is_nestable: true, created_at: STAMP },
];

export async function startStoryblokMock(options: StoryblokMockOptions = {}): Promise<StoryblokMock> {
  const maxPerPage = options.maxPerPage ?? 100;
  const languages = options.languages ?? ['de', 'fr'];
  const stories = new Map<number, MockStory>();
  const ids = new Map<string, number>();
  SEED.forEach(({ id, source }, index) => {
    const storyId = 48_210_300 + index;
    ids.set(id, storyId);
    const content: Blok = { _uid: `a1b2c3d4-0000-4000-8000-00000000000${index}`, component: 'article', title: source, internal_note: `seeded ${id}`, hero: { type: 'doc', content: [] }, body: [] };
    if (options.nested && id === 'welcome') content.body = [{ _uid: 'f9e8d7c6-1111-4111-8111-111111111111', component: 'teaser', headline: 'New arrivals every week' }];
    stories.set(storyId, { id: storyId, name: source, slug: id, content, updated_at: STAMP });
  });
  const folder = { id: 48_210_299, name: 'Shop', slug: 'shop', full_slug: 'shop', is_folder: true, content_type: '', published: false };
  const rateLimit = new Armed<number>();

  const summary = (s: MockStory) => ({ id: s.id, name: s.name, slug: s.slug, full_slug: s.slug, is_folder: false, content_type: s.content.component, published: true, unpublished_changes: false, created_at: STAMP, updated_at: s.updated_at, parent_id: 0 });
  const full = (s: MockStory) => ({ story: { ...summary(s), content: s.content, lang: 'default', default_root: null, disable_fe_editor: false, path: null } });

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) {
      return send(res, 429, { error: 'Too Many Requests' }, { 'retry-after': String(seconds) });
    }
    if (req.headers.authorization !== TOKEN) return send(res, 401, { error: 'Unauthorized' });
    const match = /^\/v1\/spaces\/(\d+)(?:\/(components|stories)(?:\/(\d+))?)?\/?$/.exec(url.pathname);
    if (!match || Number(match[1]) !== SPACE) return send(res, 404, { error: 'Not Found' });
    const [, , resource, id] = match;
    if (resource === undefined) {
      return send(res, 200, { space: { id: SPACE, name: 'Store', domain: 'https://store.example.com/', uniq_domain: null, plan: 'business', plan_level: 2, region: 'eu', languages: languages.map((code) => ({ code, name: code.toUpperCase() })), default_lang_name: 'English', created_at: STAMP } });
    }
    if (resource === 'components') return send(res, 200, { components: COMPONENTS });
    if (id === undefined) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 25), maxPerPage);
      const all = [...(url.searchParams.get('story_only') === '1' ? [] : [folder]), ...[...stories.values()].map(summary)];
      return send(res, 200, { stories: all.slice((page - 1) * perPage, page * perPage) }, { total: String(all.length), 'per-page': String(perPage) });
    }
    const story = stories.get(Number(id));
    if (!story) return send(res, 404, { error: 'Not Found' });
    if (req.method === 'GET') return send(res, 200, full(story));
    if (req.method !== 'PUT') return send(res, 405, { error: 'Method Not Allowed' });
    const body = sent as { story?: { content?: Blok } };
    if (!body.story?.content?.component) return send(res, 422, { error: 'Content is missing its component' });
    story.content = body.story.content;
    story.updated_at = new Date().toISOString();
    return send(res, 200, full(story));
  }

  const server = await serveRecording(handle, { internalError: (res, error) => send(res, 500, { error: String(error) }) });
  const storyOf = (seedId: string) => {
    const story = stories.get(ids.get(seedId) ?? -1);
    if (!story) throw new Error(`no story for ${seedId}`);
    return story;
  };

  return {
    ...server,
    url: `${server.url}/v1`,
    token: TOKEN,
    spaceId: SPACE,
    stories,
    storyId: (seedId) => storyOf(seedId).id,
    rateLimitNext: (seconds) => rateLimit.arm(seconds),
    edit(seedId, language, text) {
      const story = storyOf(seedId);
      story.content = { ...story.content, [language ? `title__i18n__${language}` : 'title']: text };
      story.updated_at = new Date().toISOString();
    },
    webhook(seedId, secret, action = 'published') {
      const story = storyOf(seedId);
      const body = JSON.stringify({ text: `The user editor@example.com ${action} the Story ${story.name} (${story.slug})\nhttps://app.storyblok.com/#/me/spaces/${SPACE}/stories/0/0/${story.id}`, action, space_id: SPACE, story_id: story.id, full_slug: story.slug });
      return { headers: { 'content-type': 'application/json', 'webhook-signature': createHmac('sha1', secret).update(body).digest('hex') }, body };
    },
  };
}

/** The acceptance kit's fixture: the SEED strings as `article` stories whose translatable `title` holds them. */
export async function storyblokFixture(): Promise<RemoteFixture> {
  const mock = await startStoryblokMock();
  return cmsFixture({
    connector: 'storyblok',
    settings: { api_url: mock.url, space_id: String(mock.spaceId) },
    secrets: { management_token: mock.token },
    badSecrets: { management_token: 'revoked-token-000000-000000' },
    sourceLocale: '',
    edit: (id, locale, text) => mock.edit(id, locale, text),
    held: (id, locale) => mock.stories.get(mock.storyId(id))?.content[`title__i18n__${locale}`],
    sourceCount: () => [...mock.stories.values()].filter((s) => typeof s.content.title === 'string').length,
    webhook: (id, secret) => mock.webhook(id, secret),
    server: mock,
  });
}
