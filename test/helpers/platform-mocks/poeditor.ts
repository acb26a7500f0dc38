/**
 * A local POEditor API v2 serving the import fixture in POEditor's own shapes and error codes, and POEditor's JSON export
 * of the fixture zipped by language.
 *
 * Shapes taken from: poeditor.com/docs/api (every call a form POST with `api_token` and `id`; the
 * `{ response: { status, code, message }, result }` envelope; projects/view, languages/list, terms/list with `language`);
 * poeditor.com/docs/error_codes (failures answered at HTTP 200 with codes 401, 4011, 403, 404, 4012, 4044);
 * poeditor.com/docs/api_rates and poeditor.com/kb/poeditor-api-limits (over the limits: "429 Too many requests", with no
 * Retry-After or reset header documented); poeditor.com/localization/files/json (the "JSON" export: a list of
 * `{ term, definition, context, term_plural, reference, comment, fuzzy }`); poeditor.com/kb/term-attributes and
 * poeditor.com/kb/plural-forms (context, reference, plural, first comment; CLDR plural rules); and the clients
 * sporteasy/python-poeditor `poeditor/client.py` (methods, fields, status handling),
 * hyperdevs-team/poeditor-android-gradle-plugin `network/api/PoEditorApiModels.kt` (envelope, languages) and
 * castodius/poeditor-sdk `src/models/poeditor.ts` (terms/list: `translation.content` a string, or an object of plural
 * forms for plural terms; `fuzzy`, `proofread` as 0/1).
 * Not confirmed by any source, so chosen here: an untranslated plural's export `definition` (an object of empty forms).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import type { FixtureKey, FixtureTranslation, ImportFixture } from '../import-fixture.js';

export interface PoeditorMockOptions {
  token?: string;
  projectId?: number;
  /** The project's Default Reference Language; '' for a project without one. */
  referenceLanguage?: string;
}

export interface PoeditorRecorded {
  /** The API method, such as `terms/list`. */
  method: string;
  fields: Record<string, string>;
  /** The HTTP status answered (429 when rate limited; POEditor's own failures are 200). */
  status: number;
}

export interface PoeditorMock {
  url: string;
  token: string;
  projectId: string;
  requests: PoeditorRecorded[];
  /** The next `count` requests are answered 429 "Too many requests", with `headers` if given (POEditor documents none). */
  rateLimitNext(count?: number, headers?: Record<string, string>): void;
  stop(): Promise<void>;
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', de: 'German', ar: 'Arabic', 'pt-br': 'Portuguese (BR)' };
const CREATED = '2024-03-04T09:10:11+0000';
const UPDATED = '2024-05-06T12:13:14+0000';

/** POEditor's code for a fixture locale: lower case, as in `pt-br`. */
export const poeditorCode = (locale: string) => locale.toLowerCase();

function languageCodes(fixture: ImportFixture): string[] {
  return [fixture.sourceLocale, ...fixture.targetLocales].map(poeditorCode);
}

function translationsByLanguage(fixture: ImportFixture): Map<string, Map<number, FixtureTranslation>> {
  const out = new Map<string, Map<number, FixtureTranslation>>();
  for (const t of fixture.translations) {
    const code = poeditorCode(t.locale);
    if (!out.has(code)) out.set(code, new Map());
    out.get(code)!.set(t.keyId, t);
  }
  return out;
}

/** A key's text in one POEditor language: the source in the reference language, else its translation or undefined. */
function textIn(fixture: ImportFixture, byLanguage: ReturnType<typeof translationsByLanguage>, key: FixtureKey, code: string) {
  if (code === poeditorCode(fixture.sourceLocale)) return { content: key.plurals ?? key.source, proofread: true };
  const t = byLanguage.get(code)?.get(key.id);
  return t ? { content: t.plurals ?? t.text, proofread: t.reviewed } : undefined;
}

/** terms/list: every term, with its translation when a language is asked for. POEditor has no max length, so none is served. */
function termsList(fixture: ImportFixture, code: string | undefined) {
  const byLanguage = translationsByLanguage(fixture);
  return fixture.keys.map((k) => {
    const text = code === undefined ? undefined : textIn(fixture, byLanguage, k, code);
    return {
      term: k.key,
      context: k.context ?? '',
      plural: k.plurals ? k.key : '',
      created: CREATED,
      updated: UPDATED,
      ...(code === undefined
        ? {}
        : { translation: { content: text?.content ?? '', fuzzy: 0, proofread: text?.proofread ? 1 : 0, updated: text ? UPDATED : '' } }),
      reference: '',
      tags: k.tags,
      comment: k.notes ?? '',
    };
  });
}

/** POEditor's "JSON" export of one language. */
export function poeditorExportFile(fixture: ImportFixture, code: string): Uint8Array {
  const byLanguage = translationsByLanguage(fixture);
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories as (keyof PluralForms)[];
  const terms = fixture.keys.map((k) => {
    const text = textIn(fixture, byLanguage, k, code);
    const empty = k.plurals ? Object.fromEntries(categories.map((c) => [c, ''])) : '';
    return { term: k.key, definition: text?.content ?? empty, context: k.context ?? '', term_plural: k.plurals ? k.key : '', reference: '', comment: k.notes ?? '', fuzzy: 0 };
  });
  return strToU8(JSON.stringify(terms, null, 2));
}

/** The fixture as a person brings it from POEditor: each language exported as "JSON", zipped, named by language code. */
export function poeditorArchive(fixture: ImportFixture): Uint8Array {
  return zipSync(Object.fromEntries(languageCodes(fixture).map((code) => [`${code}.json`, poeditorExportFile(fixture, code)])));
}

export async function startPoeditorMock(fixture: ImportFixture, options: PoeditorMockOptions = {}): Promise<PoeditorMock> {
  const token = options.token ?? '5c0b1f7e9a2d4c68b3e1a0f9d8c7b6a5';
  const projectId = String(options.projectId ?? 481516);
  const reference = options.referenceLanguage ?? poeditorCode(fixture.sourceLocale);
  const codes = languageCodes(fixture);
  const requests: PoeditorRecorded[] = [];
  const limited: Record<string, string>[] = [];

  const ok = (result: unknown) => ({ response: { status: 'success', code: '200', message: 'OK' }, result });
  const fail = (code: string, message: string) => ({ response: { status: 'fail', code, message } });

  function answer(method: string, fields: Record<string, string>): unknown {
    if (!fields.api_token) return fail('401', 'Request missing API token');
    if (fields.api_token !== token) return fail('4011', 'Invalid API Token');
    if (fields.id !== projectId) return fail('403', "You don't have permission to access this resource");
    const byLanguage = translationsByLanguage(fixture);
    switch (method) {
      case 'projects/view':
        return ok({
          project: { id: Number(projectId), name: 'Parlance fixture', description: '', public: 0, open: 0, reference_language: reference, fallback_language: '', terms: fixture.keys.length, created: CREATED },
        });
      case 'languages/list':
        return ok({
          languages: codes.map((code) => {
            const translations = code === poeditorCode(fixture.sourceLocale) ? fixture.keys.length : (byLanguage.get(code)?.size ?? 0);
            return { name: LANGUAGE_NAMES[code] ?? code, code, translations, percentage: Math.round((translations / fixture.keys.length) * 10_000) / 100, updated: UPDATED };
          }),
        });
      case 'terms/list': {
        const language = fields.language || undefined;
        if (language !== undefined && !codes.includes(language)) return fail('4044', 'Project not containing specified language');
        return ok({ terms: termsList(fixture, language) });
      }
      default:
        return fail('404', 'Invalid API Call');
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/v2\//, '').replace(/\?.*$/, '');
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const headers = limited.shift();
      if (headers) {
        requests.push({ method, fields, status: 429 });
        res.writeHead(429, { 'content-type': 'text/plain', ...headers });
        res.end('Too many requests');
        return;
      }
      requests.push({ method, fields, status: 200 });
      const body = req.method === 'POST' ? answer(method, fields) : fail('4012', 'No data sent using POST method');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`,
    token,
    projectId,
    requests,
    rateLimitNext(count = 1, headers = {}) {
      for (let i = 0; i < count; i++) limited.push(headers);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
