/**
 * A service behind the generic HTTP connector, as an n8n workflow or a team's endpoint would be: it serves its source
 * strings as the connector's source document (two strings per page, to follow `next`), takes translations at its
 * delivery URL, and checks the X-Parlance-Signature of both with the signing secret.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyParlanceSignature, signParlance } from '../../../server/integrations/connectors/http.js';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { sendJson, serveOnLoopback } from './loopback.js';

export interface HttpServiceMock extends RemoteFixture {
  url: string;
  /** Every delivery the service accepted, in order. */
  deliveries: { key: string; locale: string; text: string }[];
  /** Places (`key/locale`) the service does not take deliveries for, naming them in its answer's `skipped`. */
  locked: Set<string>;
  requests: { method: string; path: string; signed: boolean }[];
}

const PAGE = 2;

export async function startHttpServiceMock(options: { signingSecret: string; locales?: string[] }): Promise<HttpServiceMock> {
  const sources = new Map(SEED.map((s) => [s.id, s.source]));
  const translations = new Map<string, string>();
  const locales = options.locales ?? ['de', 'fr'];
  function handle(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', server.url);
    const checked = verifyParlanceSignature(req.headers['x-parlance-signature'] as string | undefined ?? null, options.signingSecret, body);
    mock.requests.push({ method: req.method ?? 'GET', path: url.pathname, signed: checked.ok });
    const send = (status: number, value: unknown) => sendJson(res, status, value);
    if (!checked.ok) return send(401, { error: `signature rejected: ${checked.reason}` });
    if (req.method === 'GET' && url.pathname === '/source') {
      const offset = Number(url.searchParams.get('offset') ?? '0');
      const ids = [...sources.keys()];
      const page = ids.slice(offset, offset + PAGE).map((id) => ({
        key: id,
        source: sources.get(id)!,
        notes: `Shown on the ${id} screen`,
        translations: Object.fromEntries(locales.flatMap((l) => (translations.has(`${id}/${l}`) ? [[l, translations.get(`${id}/${l}`)!]] : []))),
      }));
      const next = offset + PAGE < ids.length ? `${server.url}/source?offset=${offset + PAGE}` : null;
      return send(200, { strings: page, locales, next });
    }
    if (req.method === 'POST' && url.pathname === '/deliver') {
      const parsed = JSON.parse(body.toString('utf8')) as { translations: { key: string; locale: string; text: string }[] };
      for (const t of parsed.translations) {
        if (!sources.has(t.key) || !locales.includes(t.locale)) return send(422, { error: `unknown key or locale: ${t.key} ${t.locale}` });
      }
      const skipped: { key: string; locale: string }[] = [];
      for (const t of parsed.translations) {
        if (mock.locked.has(`${t.key}/${t.locale}`)) {
          skipped.push({ key: t.key, locale: t.locale });
          continue;
        }
        translations.set(`${t.key}/${t.locale}`, t.text);
        mock.deliveries.push(t);
      }
      return send(200, { accepted: parsed.translations.length - skipped.length, ...(skipped.length > 0 ? { skipped } : {}) });
    }
    return send(404, { error: 'not found' });
  }

  const server = await serveOnLoopback(handle);
  const base = server.url;

  const mock: HttpServiceMock = {
    url: base,
    deliveries: [],
    locked: new Set(),
    requests: [],
    connector: 'http',
    settings: { source_url: `${base}/source`, delivery_url: `${base}/deliver` },
    secrets: { signing_secret: options.signingSecret },
    badSecrets: { signing_secret: 'not-the-signing-secret-at-all' },
    async setSource(id, text) {
      sources.set(id, text);
    },
    async translation(id, locale) {
      return translations.get(`${id}/${locale}`);
    },
    async editTranslation(id, locale, text) {
      translations.set(`${id}/${locale}`, text);
    },
    async sourceCount() {
      return sources.size;
    },
    webhook(secret) {
      const body = JSON.stringify({ event: 'strings.changed' });
      return { headers: { 'content-type': 'application/json', 'x-parlance-signature': signParlance(secret, body) }, body };
    },
    stop: server.stop,
    start: server.start,
    close: server.close,
  };
  return mock;
}
