/**
 * A local Kontent.ai Management API v2 holding one environment in memory, in Kontent.ai's own shapes.
 *
 * Sources: kontent.ai/learn/docs/apis/management-api-v2 — language variants (the variant object `{elements: [{element:
 * {id}, value}], workflow: {workflow_identifier: {id}, step_identifier: {id}}, content_item: {id}, language: {id},
 * last_modified}`, "Retrieve language variants of an item" answering a plain array, "Upsert a language variant" by
 * language codename with element references by id or codename, "Create a new version of a language variant"),
 * content items (`{items: [...], pagination: {continuation_token, next_page}}`, the token sent back in the
 * `x-continuation` request header), content types (elements `{id, codename, name, guidelines, type,
 * maximum_length: {value, applies_to}}`, rich text's `maximum_text_length`, `is_non_localizable`), languages
 * (`{id, name, codename, external_id, is_active, is_default, fallback_language}`), errors (`{request_id, error_code,
 * message, validation_errors?}`; 401 bad key, 404 unknown object) and API limitations (429 with `Retry-After` and
 * `error_code` 10000); kontent.ai/learn/docs/webhooks and kontent-ai/webhook-helper-js (the `{notifications: [{data:
 * {system: {...}}, message: {environment_id, object_type, action, delivery_slot}}]}` body, `X-Kontent-ai-Signature`
 * = base64 HMAC-SHA256 of the body with the webhook's secret).
 *
 * Guessed (not in the pages read): the exact wording of the error messages and their `error_code` numbers other than
 * 10000; the answer to an upsert into a published variant (modelled as 400 asking for a new version) and to a new
 * version of a variant that is not published (400); an unknown environment answering 404 rather than 401; the
 * Published step's id being `c199950d-99f0-4983-b711-6c4c91624b22` in every workflow; upsert leaving elements it is
 * not sent as they were.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface KontentRequest extends MockRequest {
  authorization: string | undefined;
  continuation: string | undefined;
}

export const PUBLISHED_STEP = 'c199950d-99f0-4983-b711-6c4c91624b22';
const DRAFT_STEP = 'eee6db3b-545a-4785-8e86-e3772c8756f9';
const WORKFLOW = '00000000-0000-0000-0000-000000000000';

interface MockVariant {
  elements: Map<string, string>;
  step: string;
  lastModified: string;
}

interface MockItem {
  id: string;
  codename: string;
  name: string;
  /** Language id → variant. */
  variants: Map<string, MockVariant>;
}

export interface KontentMockOptions {
  /** The most items a page of `GET /items` holds (Kontent.ai's own pages are larger). */
  pageSize?: number;
  /** The non-default languages' codenames (default `de`, `fr`); the default language's codename is `default`. */
  languages?: string[];
}

export interface KontentMock extends RecordingServer<KontentRequest> {
  apiKey: string;
  environmentId: string;
  items: Map<string, MockItem>;
  /** Item codename → id. */
  ids: Map<string, string>;
  /** Language codename → id. */
  languageIds: Map<string, string>;
  elementIds: { title: string; body: string; slug: string; sku: string };
  /** The next request answers 429 with `Retry-After: <seconds>`. */
  rateLimitNext(seconds: number): void;
  /** A person edits the title of item `codename` in a language (`en` or `default`: the default language). */
  edit(codename: string, language: string, text: string, element?: 'title' | 'body' | 'sku'): void;
  /** What the title of item `codename` holds in a language, if the variant exists. */
  held(codename: string, language: string, element?: 'title' | 'body'): string | undefined;
  /** Publishes a variant (its workflow step becomes Published). */
  publish(codename: string, language: string): void;
  /** Deletes an item with its variants. */
  remove(codename: string): void;
  /** The notification Kontent.ai sends after an item's variant changed, signed with `secret`. */
  webhook(codename: string, secret: string, options?: { objectType?: string; environmentId?: string }): { headers: Record<string, string>; body: string };
}

const API_KEY = 'ew0KICAiYWxnIjogIkhTMjU2IiwNCiAgInR5cCI6ICJKV1QiDQp9.kontent-management-key';
const ENVIRONMENT = '975bf280-fd91-488c-994c-2f04416e5ee3';
const TYPE = { id: '0be13600-e57c-577a-9d0a-1f6c28a4a1f4', codename: 'article', name: 'Article' };
const ELEMENTS = { title: 'f1c1a2b4-0d3a-4c59-9a55-6f0c2d0e7a01', body: '2b8e7a3f-4a0e-4f1b-8c3e-9d6a1e2f3b02', slug: '7c1d9e5a-3b2f-4e8d-a1c6-5f4e3d2c1b03', sku: 'a9d8c7b6-5e4f-4a3b-9c2d-1e0f9a8b7c04' };
const DEFAULT_LANGUAGE = '00000000-0000-0000-0000-000000000000';
const STAMP = '2026-11-20T09:12:44.1234567Z';

const kError = (errorCode: number, message: string, validation?: { message: string; path?: string }[]) => ({ request_id: randomUUID(), error_code: errorCode, message, ...(validation ? { validation_errors: validation } : {}) });

export async function startKontentMock(options: KontentMockOptions = {}): Promise<KontentMock> {
  const pageSize = options.pageSize ?? 100;
  const languages = [
    { id: DEFAULT_LANGUAGE, name: 'Default project language', codename: 'default', external_id: null as string | null, is_active: true, is_default: true },
    ...(options.languages ?? ['de', 'fr']).map((codename) => ({ id: randomUUID(), name: codename, codename, external_id: `lang-${codename}`, is_active: true, is_default: false })),
    { id: randomUUID(), name: 'Spanish (inactive)', codename: 'es', external_id: null, is_active: false, is_default: false },
  ];
  const languageIds = new Map(languages.map((l) => [l.codename, l.id]));
  const items = new Map<string, MockItem>();
  const ids = new Map<string, string>();
  for (const { id: codename, source } of SEED) {
    const id = randomUUID();
    ids.set(codename, id);
    const elements = new Map([
      [ELEMENTS.title, source],
      [ELEMENTS.body, '<p><br/></p>'],
      [ELEMENTS.slug, codename],
      [ELEMENTS.sku, `SKU-${codename}`],
    ]);
    items.set(id, { id, codename, name: source, variants: new Map([[DEFAULT_LANGUAGE, { elements, step: PUBLISHED_STEP, lastModified: STAMP }]]) });
  }
  const rateLimit = new Armed<number>();

  const contentType = {
    id: TYPE.id,
    codename: TYPE.codename,
    name: TYPE.name,
    last_modified: STAMP,
    external_id: 'article',
    content_groups: [],
    elements: [
      { id: ELEMENTS.title, codename: 'title', name: 'Title', guidelines: 'The headline, shown above the article.', is_required: true, is_non_localizable: false, type: 'text', maximum_length: { value: 120, applies_to: 'characters' }, content_group: null },
      { id: ELEMENTS.body, codename: 'body', name: 'Body', guidelines: null, is_required: false, is_non_localizable: false, type: 'rich_text', maximum_text_length: { value: 500, applies_to: 'words' }, allowed_blocks: [], content_group: null },
      { id: ELEMENTS.slug, codename: 'url', name: 'URL', is_required: false, is_non_localizable: false, type: 'url_slug', depends_on: { element: { id: ELEMENTS.title } }, content_group: null },
      { id: ELEMENTS.sku, codename: 'sku', name: 'SKU', guidelines: 'Same in every language.', is_required: false, is_non_localizable: true, type: 'text', maximum_length: null, content_group: null },
    ],
  };

  const itemJson = (item: MockItem) => ({ id: item.id, name: item.name, codename: item.codename, type: { id: TYPE.id }, collection: { id: DEFAULT_LANGUAGE }, sitemap_locations: [], external_id: null, last_modified: STAMP });
  const variantJson = (item: MockItem, languageId: string, v: MockVariant) => ({
    elements: [...v.elements].map(([id, value]) => (id === ELEMENTS.body ? { element: { id }, value, components: [] } : { element: { id }, value })),
    workflow: { workflow_identifier: { id: WORKFLOW }, step_identifier: { id: v.step } },
    content_item: { id: item.id },
    language: { id: languageId },
    last_modified: v.lastModified,
    workflow_step: { id: v.step },
  });

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (body !== undefined) return sendJson(res, status, body, headers);
    res.writeHead(status, headers);
    res.end();
  };
  const notFound = (res: ServerResponse, what: string) => send(res, 404, kError(100, `The requested ${what} was not found.`));

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) return send(res, 429, kError(10000, 'API rate limit exceeded. Please retry your request later.'), { 'retry-after': String(seconds) });
    if (req.headers.authorization !== `Bearer ${API_KEY}`) return send(res, 401, kError(0, 'Unauthorized. The provided API key is invalid or does not provide access to the requested environment.'));
    const match = /^\/v2\/projects\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!match) return notFound(res, 'resource');
    const [, environment, rest] = match;
    if (environment !== ENVIRONMENT) return notFound(res, `environment '${environment}'`);
    const parts = rest!.split('/').map(decodeURIComponent);
    const continuation = req.headers['x-continuation'] as string | undefined;
    const page = <T>(field: string, all: T[]) => {
      const offset = continuation ? Number(Buffer.from(continuation, 'base64').toString('utf8')) : 0;
      const next = offset + pageSize < all.length ? Buffer.from(String(offset + pageSize)).toString('base64') : null;
      return send(res, 200, { [field]: all.slice(offset, offset + pageSize), pagination: { continuation_token: next, next_page: next ? `${url.origin}${url.pathname}` : null } });
    };
    if (req.method === 'GET' && parts.length === 1 && parts[0] === 'languages') return page('languages', languages.map((l) => ({ ...l, fallback_language: { id: DEFAULT_LANGUAGE } })));
    if (req.method === 'GET' && parts.length === 1 && parts[0] === 'items') return page('items', [...items.values()].map(itemJson));
    if (req.method === 'GET' && parts[0] === 'types' && parts.length === 2) return parts[1] === TYPE.id ? send(res, 200, contentType) : notFound(res, `content type '${parts[1]}'`);
    if (parts[0] !== 'items' || parts[2] !== 'variants') return notFound(res, 'resource');
    const item = items.get(parts[1]!);
    if (!item) return notFound(res, `content item '${parts[1]}'`);
    if (req.method === 'GET' && parts.length === 3) return send(res, 200, [...item.variants].map(([languageId, v]) => variantJson(item, languageId, v)));
    if (parts[3] !== 'codename' || !parts[4]) return notFound(res, 'resource');
    const languageId = languageIds.get(parts[4]);
    if (!languageId) return notFound(res, `language '${parts[4]}'`);
    const variant = item.variants.get(languageId);
    if (req.method === 'GET' && parts.length === 5) return variant ? send(res, 200, variantJson(item, languageId, variant)) : notFound(res, 'language variant');
    if (req.method !== 'PUT') return send(res, 405, kError(0, `The requested resource does not support http method '${req.method}'.`));
    if (parts.length === 6 && parts[5] === 'new-version') {
      if (!variant) return notFound(res, 'language variant');
      if (variant.step !== PUBLISHED_STEP) return send(res, 400, kError(219, 'The language variant is not published, so a new version cannot be created.'));
      variant.step = DRAFT_STEP;
      return send(res, 204, undefined);
    }
    if (parts.length !== 5) return notFound(res, 'resource');
    if (req.headers['content-type']?.split(';')[0] !== 'application/json') return send(res, 415, kError(0, 'Unsupported media type.'));
    if (variant?.step === PUBLISHED_STEP) return send(res, 400, kError(218, 'The language variant is published. Create a new version of the language variant before you change it.'));
    const body = sent as { elements?: { element?: { id?: string; codename?: string }; value?: unknown }[] };
    if (!Array.isArray(body?.elements)) return send(res, 400, kError(5, 'The provided request body is invalid.', [{ message: "The 'elements' property is required.", path: 'elements' }]));
    const updates = new Map<string, string>();
    for (const e of body.elements) {
      const element = contentType.elements.find((d) => d.id === e.element?.id || d.codename === e.element?.codename);
      if (!element) return send(res, 400, kError(5, 'The provided request body is invalid.', [{ message: `Element '${e.element?.id ?? e.element?.codename}' does not exist in content type '${TYPE.codename}'.` }]));
      if (element.is_non_localizable && languageId !== DEFAULT_LANGUAGE) return send(res, 400, kError(5, 'The provided request body is invalid.', [{ message: `Element '${element.codename}' is non-localizable; it can only be changed in the default language.` }]));
      if (typeof e.value !== 'string') return send(res, 400, kError(5, 'The provided request body is invalid.', [{ message: `The value of element '${element.codename}' must be a string.` }]));
      updates.set(element.id, e.value);
    }
    const target = variant ?? { elements: new Map<string, string>(), step: DRAFT_STEP, lastModified: STAMP };
    for (const [id, value] of updates) target.elements.set(id, value);
    target.lastModified = new Date().toISOString();
    item.variants.set(languageId, target);
    return send(res, 200, variantJson(item, languageId, target));
  }

  const server = await serveRecording(handle, {
    extra: (req) => ({ authorization: req.headers.authorization, continuation: req.headers['x-continuation'] as string | undefined }),
    internalError: (res, error) => send(res, 500, kError(0, `Internal server error: ${String(error)}`)),
  });

  const itemOf = (codename: string) => {
    const item = items.get(ids.get(codename) ?? '');
    if (!item) throw new Error(`no item ${codename}`);
    return item;
  };
  const languageOf = (codename: string) => {
    const id = codename === 'en' ? DEFAULT_LANGUAGE : languageIds.get(codename);
    if (!id) throw new Error(`no language ${codename}`);
    return id;
  };

  return {
    ...server,
    apiKey: API_KEY,
    environmentId: ENVIRONMENT,
    items,
    ids,
    languageIds,
    elementIds: ELEMENTS,
    rateLimitNext: (seconds) => rateLimit.arm(seconds),
    edit(codename, language, text, element = 'title') {
      const item = itemOf(codename);
      const languageId = languageOf(language);
      const variant = item.variants.get(languageId) ?? { elements: new Map<string, string>(), step: DRAFT_STEP, lastModified: STAMP };
      variant.elements.set(ELEMENTS[element], text);
      variant.lastModified = new Date().toISOString();
      item.variants.set(languageId, variant);
    },
    held(codename, language, element = 'title') {
      return itemOf(codename).variants.get(languageOf(language))?.elements.get(ELEMENTS[element]);
    },
    publish(codename, language) {
      const variant = itemOf(codename).variants.get(languageOf(language));
      if (!variant) throw new Error(`no ${language} variant of ${codename}`);
      variant.step = PUBLISHED_STEP;
    },
    remove(codename) {
      items.delete(ids.get(codename) ?? '');
    },
    webhook(codename, secret, hook = {}) {
      const item = itemOf(codename);
      const body = JSON.stringify({
        notifications: [
          {
            data: { system: { id: item.id, name: item.name, codename: item.codename, collection: 'default', workflow: 'default', workflow_step: 'draft', language: 'default', type: TYPE.codename, last_modified: new Date().toISOString() } },
            message: { environment_id: hook.environmentId ?? ENVIRONMENT, object_type: hook.objectType ?? 'content_item', action: 'workflow_step_changed', delivery_slot: 'preview' },
          },
        ],
      });
      return { headers: { 'content-type': 'application/json', 'x-kontent-ai-signature': createHmac('sha256', secret).update(body).digest('base64') }, body };
    },
  };
}

/** The acceptance kit's fixture: the SEED strings as `article` items whose `title` holds them in the default language. */
export async function kontentFixture(): Promise<RemoteFixture> {
  const mock = await startKontentMock();
  return cmsFixture({
    connector: 'kontent',
    settings: { api_url: `${mock.url}/v2`, environment_id: mock.environmentId },
    secrets: { api_key: mock.apiKey },
    badSecrets: { api_key: 'revoked-management-api-key' },
    edit: (id, locale, text) => mock.edit(id, locale, text),
    held: (id, locale) => mock.held(id, locale),
    sourceCount: () => [...mock.items.values()].filter((item) => typeof item.variants.get('00000000-0000-0000-0000-000000000000')?.elements.get(ELEMENTS.title) === 'string').length,
    webhook: (id, secret) => mock.webhook(id, secret),
    server: mock,
  });
}
