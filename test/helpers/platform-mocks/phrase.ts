/**
 * A Phrase Strings API v2 on 127.0.0.1 serving the import fixture in Phrase's own shapes, and the archive a
 * `phrase pull` of it gives.
 *
 * Shapes from: github.com/phrase/openapi (schemas/project.yaml, locale.yaml, translation_key.yaml,
 * translation_key_details.yaml, translation.yaml, glossary.yaml, glossary_term.yaml, errors.yaml, headers.yaml,
 * parameters.yaml: page/per_page 1..100, default 25; paths/keys/index.yaml, keys/show.yaml,
 * translations/index_locale.yaml, glossaries/index.yaml, glossary_terms/index.yaml); developers.phrase.com
 * "Pagination" (Link header with first/prev/next/last) and "Rate Limiting" (X-Rate-Limit-Limit/Remaining/Reset, the
 * reset a UNIX timestamp, 429 when over); the 404 body `{"message":"Not Found","documentation_url":...}` as quoted in
 * isadounikau/phrase-api-client's tests; the `.phrase.yml` push sources / pull targets with `<locale_name>` from
 * support.phrase.com "Create a CLI Configuration File".
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync, strToU8 } from 'fflate';
import { getCodec } from '../../../src/core/formats/index.js';
import { PLURAL_CATEGORIES, type FreshEntry } from '../../../src/core/formats/codec.js';
import { renderTmx } from '../../../src/core/tmx.js';
import type { ImportFixture } from '../import-fixture.js';
import { createRequestHolds, type HeldRequest } from './held-request.js';

const DOCS = 'https://developers.phrase.com/api/';
const STAMP = '2024-05-02T10:00:00Z';
/** A Phrase-looking id (32 hex digits) made from a kind and a number, stable across runs. */
const pid = (kind: string, n: number | string) => createHash('md5').update(`${kind}:${n}`).digest('hex');

export interface PhraseMockOptions {
  token?: string;
  /** Phrase's default page size is 25; a smaller cap makes more pages. */
  maxPerPage?: number;
}

export interface PhraseMock {
  url: string;
  token: string;
  projectId: string;
  requests: { method: string; path: string; status: number }[];
  /** The next `count` requests answer 429 with Phrase's rate-limit headers, the reset `resetSeconds` from now. */
  rateLimitNext(count?: number, resetSeconds?: number): void;
  /** Holds the first request `match` takes until the test releases it. */
  hold(match: (method: string, url: URL) => boolean): HeldRequest;
  stop(): Promise<void>;
}

function phraseData(fixture: ImportFixture) {
  const projectId = pid('project', 1);
  const account = { id: pid('account', 1), name: 'Parlance Fixtures', slug: 'parlance-fixtures', company: 'Parlance', created_at: STAMP, updated_at: STAMP, company_logo_url: null };
  const projectShort = { id: projectId, name: 'Fixture app', main_format: 'simple_json', created_at: STAMP, updated_at: STAMP };
  const project = { ...projectShort, slug: 'fixture-app', project_image_url: null, media: null, account, space: null, point_of_contact: null, shares_translation_memory: true, machine_translation_enabled: false, zero_plural_form_enabled: true, enable_icu_message_format: false, enable_branching: false, default_encoding: 'UTF-8' };
  const tags = [fixture.sourceLocale, ...fixture.targetLocales];
  const pluralForms = (tag: string) => new Intl.PluralRules(tag).resolvedOptions().pluralCategories.slice().sort((a, b) => PLURAL_CATEGORIES.indexOf(a) - PLURAL_CATEGORIES.indexOf(b));
  const locales = tags.map((tag) => ({
    id: pid('locale', tag),
    name: tag,
    code: tag,
    default: tag === fixture.sourceLocale,
    main: false,
    rtl: tag === 'ar',
    plural_forms: pluralForms(tag),
    ordinal_plural_forms: ['other'],
    source_locale: null,
    fallback_locale: null,
    created_at: STAMP,
    updated_at: STAMP,
  }));
  const localePreview = (tag: string) => ({ id: pid('locale', tag), name: tag, code: tag });
  // Phrase has no context field: the fixture's context does not exist on Phrase.
  const keys = fixture.keys.map((k) => ({
    id: pid('key', k.id),
    name: k.key,
    description: k.notes ?? null,
    name_hash: createHash('md5').update(k.key).digest('hex'),
    plural: k.plurals !== undefined,
    use_ordinal_rules: false,
    tags: k.tags,
    data_type: 'string',
    created_at: STAMP,
    updated_at: STAMP,
  }));
  const keyDetails = new Map(
    fixture.keys.map((k, i) => [
      keys[i]!.id,
      { ...keys[i]!, name_plural: k.plurals ? k.key : '', comments_count: 0, max_characters_allowed: k.maxLength ?? 0, screenshot_url: null, unformatted: false, xml_space_preserve: false, original_file: null, format_value_type: null, creator: { id: pid('user', 1), username: 'jane.doe', name: 'Jane Doe' }, custom_metadata: {} },
    ]),
  );
  // One record per plural form, as Phrase keeps them; sorted by key name as `sort=key_name` asks.
  const byLocale = new Map<string, object[]>(tags.map((t) => [t, []]));
  const record = (n: number, tag: string, content: string, suffix: string, state: string) => {
    const k = fixture.keys[n - 1]!;
    return {
      id: pid(`translation:${tag}:${suffix}`, n),
      content,
      unverified: state === 'unverified',
      excluded: false,
      plural_suffix: suffix,
      key: { id: pid('key', n), name: k.key, plural: k.plurals !== undefined, use_ordinal_rules: false },
      locale: localePreview(tag),
      placeholders: [],
      state,
      created_at: STAMP,
      updated_at: STAMP,
      linked_translation: null,
    };
  };
  const push = (n: number, tag: string, text: string, plurals: Record<string, string> | undefined, state: string) => {
    const list = byLocale.get(tag)!;
    if (plurals) for (const c of PLURAL_CATEGORIES) if (plurals[c] !== undefined) list.push(record(n, tag, plurals[c]!, c, state));
    if (!plurals) list.push(record(n, tag, text, '', state));
  };
  for (const k of fixture.keys) push(k.id, fixture.sourceLocale, k.source, k.plurals, 'reviewed');
  for (const t of fixture.translations) push(t.keyId, t.locale, t.text, t.plurals, t.reviewed ? 'reviewed' : t.keyId % 2 ? 'translated' : 'unverified');
  for (const list of byLocale.values()) (list as { key: { name: string } }[]).sort((a, b) => (a.key.name < b.key.name ? -1 : a.key.name > b.key.name ? 1 : 0));

  const glossaries = [
    { id: pid('glossary', 1), name: 'Fixture terms', projects: [projectShort], spaces: [], created_at: STAMP, updated_at: STAMP },
    { id: pid('glossary', 2), name: 'Another project', projects: [{ ...projectShort, id: pid('project', 2), name: 'Other' }], spaces: [], created_at: STAMP, updated_at: STAMP },
  ];
  const terms = new Map<string, object[]>([
    [
      glossaries[0]!.id,
      fixture.glossary.map((g, i) => ({
        id: pid('term', i),
        term: g.term,
        description: g.notes ?? '',
        translatable: Object.keys(g.translations).length > 0,
        case_sensitive: g.term === 'Parlance',
        translations: Object.entries(g.translations).map(([locale_code, content]) => ({ id: pid(`term:${i}`, locale_code), locale_code, content, created_at: STAMP, updated_at: STAMP })),
        created_at: STAMP,
        updated_at: STAMP,
      })),
    ],
    [glossaries[1]!.id, [{ id: pid('term', 99), term: 'Unrelated', description: '', translatable: true, case_sensitive: false, translations: [], created_at: STAMP, updated_at: STAMP }]],
  ]);
  return { projectId, project, account, locales, keys, keyDetails, byLocale, glossaries, terms };
}

export async function startPhraseMock(fixture: ImportFixture, options: PhraseMockOptions = {}): Promise<PhraseMock> {
  const token = options.token ?? 'phrase-token-2f6c1d';
  const maxPerPage = Math.min(options.maxPerPage ?? 100, 100);
  const data = phraseData(fixture);
  const requests: PhraseMock['requests'] = [];
  let limited = 0;
  let limitedReset = 1;
  let remaining = 1000;
  const holds = createRequestHolds();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    void holds.pass(req, res, url).then((answering) => answering && handle(req, res, url));
  });
  function handle(req: IncomingMessage, res: ServerResponse, url: URL) {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, status });
      const reset = Math.floor(Date.now() / 1000) + (status === 429 ? limitedReset : 300);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-rate-limit-limit': '1000', 'x-rate-limit-remaining': String(status === 429 ? 0 : remaining), 'x-rate-limit-reset': String(reset), ...headers });
      res.end(JSON.stringify(body));
    };
    if (limited > 0) {
      limited--;
      return send(429, { message: 'Rate limit exceeded', documentation_url: 'https://developers.phrase.com/en/api/strings/rate-limiting' });
    }
    remaining = Math.max(0, remaining - 1);
    if (req.headers.authorization !== `token ${token}`) return send(401, { message: 'Unauthorized', documentation_url: DOCS });

    const paginate = (items: unknown[]) => {
      const perPage = Math.max(1, Math.min(Number(url.searchParams.get('per_page') ?? 25) || 25, maxPerPage));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const last = Math.max(1, Math.ceil(items.length / perPage));
      const at = (n: number) => {
        const u = new URL(url);
        u.searchParams.set('page', String(n));
        u.searchParams.set('per_page', String(perPage));
        return `<${u}>`;
      };
      const links = [`${at(1)}; rel="first"`, ...(page > 1 ? [`${at(page - 1)}; rel="prev"`] : []), ...(page < last ? [`${at(page + 1)}; rel="next"`] : []), `${at(last)}; rel="last"`];
      const pagination = { total_count: items.length, total_pages_count: last, current_page: page, current_per_page: perPage, previous_page: page > 1 ? page - 1 : null, next_page: page < last ? page + 1 : null };
      send(200, items.slice((page - 1) * perPage, page * perPage), { link: links.join(', '), pagination: JSON.stringify(pagination) });
    };
    const notFound = () => send(404, { message: 'Not Found', documentation_url: DOCS });
    const parts = url.pathname.replace(/^\/v2\/?/, '').split('/').filter(Boolean);

    if (parts[0] === 'projects') {
      if (parts[1] !== data.projectId) return notFound();
      if (parts.length === 2) return send(200, data.project);
      if (parts[2] === 'locales' && parts.length === 3) return paginate(data.locales);
      if (parts[2] === 'keys' && parts.length === 3) return paginate(data.keys);
      if (parts[2] === 'keys' && parts.length === 4) return data.keyDetails.has(parts[3]!) ? send(200, data.keyDetails.get(parts[3]!)) : notFound();
      if (parts[2] === 'locales' && parts[4] === 'translations' && parts.length === 5) {
        const locale = data.locales.find((l) => l.id === parts[3] || l.name === parts[3]);
        return locale ? paginate(data.byLocale.get(locale.name)!) : notFound();
      }
      return notFound();
    }
    if (parts[0] === 'accounts' && parts[1] === data.account.id) {
      if (parts[2] === 'glossaries' && parts.length === 3) return paginate(data.glossaries);
      if (parts[2] === 'glossaries' && parts[4] === 'terms' && parts.length === 5) return data.terms.has(parts[3]!) ? paginate(data.terms.get(parts[3]!)!) : notFound();
    }
    return notFound();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    token,
    projectId: data.projectId,
    requests,
    rateLimitNext(count = 1, resetSeconds = 1) {
      limited += count;
      limitedReset = resetSeconds;
    },
    hold: holds.hold,
    stop: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * What `phrase pull` writes for the fixture under a `.phrase.yml` that pushes locales/en.json (simple_json) and the
 * Android strings (xml), zipped with that config and a TMX of the memory. Locale downloads carry keys and text, and
 * Android plurals; not review state, tags, max lengths or context, and this zip has no term base.
 */
export function phraseArchive(fixture: ImportFixture): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  const config = [
    'phrase:',
    `  project_id: "${pid('project', 1)}"`,
    '  push:',
    '    sources:',
    '      - file: ./locales/en.json',
    '        params:',
    '          file_format: simple_json',
    `          locale_id: ${fixture.sourceLocale}`,
    '      - file: ./app/src/main/res/values/strings.xml',
    '        params:',
    '          file_format: xml',
    `          locale_id: ${fixture.sourceLocale}`,
    '  pull:',
    '    targets:',
    '      - file: ./locales/<locale_name>.json',
    '        params:',
    '          file_format: simple_json',
    '      - file: ./app/src/main/res/values-<locale_name>/strings.xml',
    '        params:',
    '          file_format: xml',
    '',
  ].join('\n');
  entries['.phrase.yml'] = strToU8(config);
  const json = getCodec('json')!;
  const android = getCodec('android_xml')!;
  for (const locale of [fixture.sourceLocale, ...fixture.targetLocales]) {
    const text = new Map(fixture.translations.filter((t) => t.locale === locale).map((t) => [t.keyId, t]));
    const jsonEntries: FreshEntry[] = [];
    const androidEntries: FreshEntry[] = [];
    for (const k of fixture.keys) {
      const t = locale === fixture.sourceLocale ? { text: k.source, plurals: k.plurals } : text.get(k.id);
      if (!t) continue;
      const value = t.plurals ? { plurals: t.plurals } : t.text;
      (k.format === 'json' ? jsonEntries : androidEntries).push({ key: k.key, value });
    }
    entries[`locales/${locale}.json`] = json.renderFresh(jsonEntries);
    entries[`app/src/main/res/values-${locale}/strings.xml`] = android.renderFresh(androidEntries);
    if (locale === fixture.sourceLocale) entries['app/src/main/res/values/strings.xml'] = android.renderFresh(androidEntries);
  }
  const bySource = new Map<string, { source: string; targets: { locale: string; text: string }[] }>();
  for (const m of fixture.memory) {
    const unit = bySource.get(m.source) ?? { source: m.source, targets: [] };
    unit.targets.push({ locale: m.locale, text: m.text });
    bySource.set(m.source, unit);
  }
  entries['translation-memory.tmx'] = strToU8(renderTmx({ sourceLocale: fixture.sourceLocale, units: [...bySource.values()], tool: { name: 'Phrase', version: '2' } }));
  return zipSync(entries);
}
