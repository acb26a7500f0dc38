/**
 * A local Hygraph Content API (GraphQL over `POST`, one endpoint per project environment) holding one environment in
 * memory: locales `en` (default), `de`, `fr` (the `Locale` enum), a model `Article` (plural `articles`) with localized
 * String fields `title` (described in the schema) and `subtitle`, a localized RichText `body` (not a String, left out),
 * and a non-localized `slug`; one `Article` entry per SEED string whose `title` in `en` holds it. It reads just enough
 * GraphQL (a small parser of operations, selections, arguments and variables) to answer what the connector sends:
 * `__type(name:)` introspection (`enumValues`, `inputFields { name description type { kind name ofType } }`), the list
 * query `articles(first, skip, stage, locales, orderBy)`, the single query `article(where: { id }, stage)`, an entry's
 * `localizations(locales, includeCurrent)`, and `updateArticle(where: { id }, data: { localizations: { upsert: [{
 * locale, create, update }] } })`; answers are `{ data, errors }` with only the selected fields.
 *
 * Sources: https://hygraph.com/docs/api-reference/content-api/localization (localized fields, the `locales` argument
 * with the first locale answered, `localizations(locales: [...], includeCurrent: true|false)`, the
 * `localizations: { upsert: [{ locale, create, update }] }` input of `update<Model>`), …/content-api/queries (`first`,
 * `skip`, `stage: DRAFT`, `<model>` and `<plural>` queries), …/content-api/mutations, …/basics/api-limits (429 when the
 * requests per second or concurrent operations are exceeded, 413 above the request size), …/basics/webhooks and
 * hygraph/hygraph-utils index.js (`gcms-signature: sign=<base64 HMAC-SHA256>, env=<environment>, t=<ms>` over
 * `JSON.stringify({ Body, EnvironmentName, TimeStamp })` with `&<>` escaped as `\\u00xx`).
 *
 * Guessed (not stated in the pages read): the exact texts and `extensions` of error bodies (a refused token here is a
 * 401 `{ errors: [{ message: 'the provided token is invalid' }] }`, a 429 carries `Retry-After` in seconds and `{ errors:
 * [{ message: '429 Too Many Requests' }] }`, a complexity refusal is a 200 with an error about the query's complexity);
 * the input-type naming `<Model>CreateLocalizationDataInput` and `<Model>UpdateInput` (as Hygraph's generated
 * schemas show them, not re-checked against a live project); `first` above 100 refused with an error; that an update of
 * an entry that does not exist answers `null` with an error; the webhook payload (`{ operation, data: { __typename, id,
 * stage, ...fields } }`) beyond its `operation` and `data`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { Armed, cmsFixture, serveRecording, type MockRequest, type RecordingServer } from './cms-mock.js';
import { sendJson } from './loopback.js';

export interface HygraphRequest extends MockRequest {
  headers: Record<string, string | undefined>;
}

export interface HygraphEntry {
  id: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  /** Each locale's localized values (the default locale's too). */
  values: Map<string, Record<string, string | null>>;
}

export interface HygraphMockOptions {
  locales?: string[];
  /** The most entries `first` may ask for (Hygraph's is 100); a page holds at most `pageCap` whatever is asked. */
  pageCap?: number;
}

export interface HygraphMock extends RecordingServer<HygraphRequest> {
  token: string;
  endpoint: string;
  entries: Map<string, HygraphEntry>;
  /** SEED id → entry id. */
  ids: Map<string, string>;
  /** The next request answers 429 with `Retry-After: <seconds>`. */
  rateLimitNext(seconds: number): void;
  /** Runs `change` once, just before the next mutation is handled (a person acting between our read and our write). */
  beforeNextMutation(change: () => void): void;
  /** The next GraphQL operation is refused for its complexity (HTTP 200 with an error). */
  complexityNext(): void;
  /** A person edits a SEED entry's title in a locale in Hygraph's app. */
  edit(seedId: string, locale: string, text: string): void;
  title(seedId: string, locale: string): string | null | undefined;
  remove(seedId: string): void;
  /** The call a Hygraph webhook with a secret key makes after `seedId` is updated, signed with `secret`. */
  webhook(seedId: string, secret: string, options?: { at?: number; typename?: string; operation?: string }): { headers: Record<string, string>; body: string };
}

const TOKEN = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.parlance-test.pat';
const STAMP = '2026-11-20T09:12:44.000000+00:00';
const LOCALIZED = ['title', 'subtitle', 'body'];

// --- a small GraphQL reader: enough for the operations above -----------------------------------------------------

type Value = unknown;
interface Selection {
  alias: string;
  name: string;
  args: Record<string, Value>;
  selections?: Selection[];
}

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  const re = /\s+|,|#[^\n]*|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([{}()[\]:$!=])/gy;
  let at = 0;
  while (at < source.length) {
    re.lastIndex = at;
    const m = re.exec(source);
    if (!m) throw new Error(`Syntax Error: Unexpected character "${source[at]}".`);
    const token = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (token) tokens.push(token);
    at = re.lastIndex;
  }
  return tokens;
}

function parseOperation(source: string, variables: Record<string, unknown>): { type: 'query' | 'mutation'; selections: Selection[] } {
  const t = tokenize(source);
  let i = 0;
  const expect = (s: string) => {
    if (t[i] !== s) throw new Error(`Syntax Error: Expected "${s}", found "${t[i] ?? '<EOF>'}".`);
    i++;
  };
  let type: 'query' | 'mutation' = 'query';
  if (t[i] === 'query' || t[i] === 'mutation') {
    type = t[i++] as 'query' | 'mutation';
    if (t[i] !== '(' && t[i] !== '{') i++;
    if (t[i] === '(') {
      let depth = 0;
      do {
        if (t[i] === '(') depth++;
        if (t[i] === ')') depth--;
        i++;
      } while (depth > 0 && i < t.length);
    }
  }
  const value = (): Value => {
    const tok = t[i++]!;
    if (tok === '$') {
      const name = t[i++]!;
      if (!(name in variables)) throw new Error(`Variable "$${name}" is not defined.`);
      return variables[name];
    }
    if (tok.startsWith('"')) return JSON.parse(tok) as string;
    if (/^-?\d/.test(tok)) return Number(tok);
    if (tok === '[') {
      const list: Value[] = [];
      while (t[i] !== ']') list.push(value());
      i++;
      return list;
    }
    if (tok === '{') {
      const object: Record<string, Value> = {};
      while (t[i] !== '}') {
        const key = t[i++]!;
        expect(':');
        object[key] = value();
      }
      i++;
      return object;
    }
    return tok === 'true' ? true : tok === 'false' ? false : tok === 'null' ? null : tok;
  };
  const selectionSet = (): Selection[] => {
    expect('{');
    const out: Selection[] = [];
    while (t[i] !== '}') {
      if (i >= t.length) throw new Error('Syntax Error: Expected Name, found <EOF>.');
      let name = t[i++]!;
      const alias = name;
      if (t[i] === ':') {
        i++;
        name = t[i++]!;
      }
      const args: Record<string, Value> = {};
      if (t[i] === '(') {
        i++;
        while (t[i] !== ')') {
          const key = t[i++]!;
          expect(':');
          args[key] = value();
        }
        i++;
      }
      out.push({ alias, name, args, ...(t[i] === '{' ? { selections: selectionSet() } : {}) });
    }
    i++;
    return out;
  };
  return { type, selections: selectionSet() };
}

/** Picks the selected fields of plain data (objects, lists of them). */
function project(value: unknown, selections: Selection[] | undefined): unknown {
  if (value === null || value === undefined || !selections) return value ?? null;
  if (Array.isArray(value)) return value.map((v) => project(v, selections));
  const record = value as Record<string, unknown>;
  return Object.fromEntries(selections.map((s) => [s.alias, project(record[s.name], s.selections)]));
}

// --- the mock ------------------------------------------------------------------------------------------------------

export async function startHygraphMock(options: HygraphMockOptions = {}): Promise<HygraphMock> {
  const locales = [...(options.locales ?? ['en', 'de', 'fr'])];
  const main = locales[0]!;
  const pageCap = options.pageCap ?? 100;
  const entries = new Map<string, HygraphEntry>();
  const ids = new Map<string, string>();
  for (const { id, source } of SEED) {
    const entryId = `cl${randomBytes(11).toString('hex')}`;
    ids.set(id, entryId);
    entries.set(entryId, { id: entryId, slug: id, createdAt: STAMP, updatedAt: STAMP, values: new Map([[main, { title: source, subtitle: null, body: null }]]) });
  }
  const rateLimit = new Armed<number>();
  const complexity = new Armed<true>();
  const beforeMutation = new Armed<() => void>();

  const stringType = { kind: 'SCALAR', name: 'String', ofType: null };
  const schemaTypes: Record<string, unknown> = {
    Locale: { kind: 'ENUM', name: 'Locale', enumValues: locales.map((name) => ({ name })), inputFields: null },
    ArticleCreateLocalizationDataInput: {
      kind: 'INPUT_OBJECT',
      name: 'ArticleCreateLocalizationDataInput',
      enumValues: null,
      inputFields: [
        { name: 'title', description: 'The headline shown on the article page', type: stringType },
        { name: 'subtitle', description: null, type: stringType },
        { name: 'body', description: null, type: { kind: 'SCALAR', name: 'RichTextAST', ofType: null } },
      ],
    },
  };

  /** An entry as the API resolves it in locale `locale` (its fields, and its localizations on demand). */
  function resolveEntry(entry: HygraphEntry, locale: string, selections: Selection[] | undefined): unknown {
    if (!selections) return null;
    const values = entry.values.get(locale) ?? {};
    return Object.fromEntries(
      selections.map((s) => {
        if (s.name === 'localizations') {
          const wanted = (s.args.locales as string[] | undefined) ?? locales;
          const includeCurrent = s.args.includeCurrent === true;
          const list = locales.filter((l) => entry.values.has(l) && wanted.includes(l) && (includeCurrent || l !== locale));
          for (const f of s.selections ?? []) if (!['locale', 'updatedAt', ...LOCALIZED].includes(f.name)) throw new Error(`Cannot query field "${f.name}" on type "Article".`);
          return [s.alias, list.map((l) => project({ locale: l, updatedAt: entry.updatedAt, ...entry.values.get(l) }, s.selections))];
        }
        const scalar: Record<string, unknown> = { id: entry.id, slug: entry.slug, createdAt: entry.createdAt, updatedAt: entry.updatedAt, stage: 'DRAFT', locale, __typename: 'Article', ...values };
        if (!(s.name in scalar) && !LOCALIZED.includes(s.name)) throw new Error(`Cannot query field "${s.name}" on type "Article".`);
        return [s.alias, scalar[s.name] ?? null];
      }),
    );
  }

  function checkLocales(list: unknown, where: string): string[] {
    if (!Array.isArray(list)) throw new Error(`${where}: expected a list of Locale.`);
    for (const l of list) if (typeof l !== 'string' || !locales.includes(l)) throw new Error(`Variable "${where}" got invalid value "${String(l)}"; Value "${String(l)}" does not exist in "Locale" enum.`);
    return list as string[];
  }

  function rootField(type: 'query' | 'mutation', s: Selection, errors: { message: string; path?: string[] }[]): unknown {
    if (type === 'query' && s.name === '__type') return project(schemaTypes[String(s.args.name)] ?? null, s.selections);
    if (type === 'query' && s.name === 'articles') {
      const first = Number(s.args.first ?? 100);
      if (first > 100) throw new Error('first: the value must be less than or equal to 100');
      const skip = Number(s.args.skip ?? 0);
      const locale = checkLocales(s.args.locales ?? [main], '$locales')[0] ?? main;
      const all = [...entries.values()];
      return all.slice(skip, skip + Math.min(first, pageCap)).map((e) => resolveEntry(e, locale, s.selections));
    }
    if (type === 'query' && s.name === 'article') {
      const id = (s.args.where as { id?: string } | undefined)?.id;
      const entry = id ? entries.get(id) : undefined;
      return entry ? resolveEntry(entry, checkLocales(s.args.locales ?? [main], '$locales')[0] ?? main, s.selections) : null;
    }
    if (type === 'mutation' && s.name === 'updateArticle') {
      const id = (s.args.where as { id?: string } | undefined)?.id;
      const entry = id ? entries.get(id) : undefined;
      if (!entry) {
        errors.push({ message: `Could not find a document of type Article with id ${id ?? '?'}`, path: [s.alias] });
        return null;
      }
      const data = s.args.data as { localizations?: { upsert?: { locale?: string; create?: Record<string, unknown>; update?: Record<string, unknown> }[] } } | undefined;
      const upserts = data?.localizations?.upsert ?? [];
      const validate = (values: Record<string, unknown> | undefined) => {
        for (const [k, v] of Object.entries(values ?? {})) {
          if (!LOCALIZED.includes(k)) throw new Error(`Variable "$data" got invalid value; Field "${k}" is not defined by type "ArticleCreateLocalizationDataInput".`);
          if (v !== null && typeof v !== 'string') throw new Error(`Variable "$data" got invalid value at "${k}"; String cannot represent a non string value.`);
        }
      };
      for (const u of upserts) {
        checkLocales([u.locale], '$data');
        if (u.locale === main) throw new Error(`The default locale ${main} cannot be upserted as a localization.`);
        validate(u.create);
        validate(u.update);
      }
      for (const u of upserts) {
        const existing = entry.values.get(u.locale!);
        entry.values.set(u.locale!, existing ? { ...existing, ...(u.update as Record<string, string | null>) } : { title: null, subtitle: null, body: null, ...(u.create as Record<string, string | null>) });
      }
      entry.updatedAt = new Date().toISOString();
      return resolveEntry(entry, main, s.selections);
    }
    throw new Error(`Cannot query field "${s.name}" on type "${type === 'query' ? 'Query' : 'Mutation'}".`);
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, sent: unknown): void {
    const seconds = rateLimit.take();
    if (seconds !== undefined) return sendJson(res, 429, { errors: [{ message: '429 Too Many Requests' }] }, { 'retry-after': String(seconds) });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return sendJson(res, 401, { errors: [{ message: 'the provided token is invalid' }] });
    if (req.method !== 'POST' || url.pathname !== '/v2/parlance-test/master') return sendJson(res, 404, { errors: [{ message: 'project not found' }] });
    const body = sent as { query?: unknown; variables?: unknown } | undefined;
    if (typeof body?.query !== 'string') return sendJson(res, 400, { errors: [{ message: 'Must provide query string.' }] });
    if (complexity.take()) return sendJson(res, 200, { data: null, errors: [{ message: 'query complexity exceeds the limit of your plan', extensions: { code: 'TOO_MANY_REQUESTS' } }] });
    let operation: ReturnType<typeof parseOperation>;
    try {
      operation = parseOperation(body.query, (body.variables ?? {}) as Record<string, unknown>);
    } catch (error) {
      return sendJson(res, 400, { errors: [{ message: error instanceof Error ? error.message : String(error) }] });
    }
    if (operation.type === 'mutation') beforeMutation.take()?.();
    const errors: { message: string; path?: string[] }[] = [];
    const data: Record<string, unknown> = {};
    try {
      for (const s of operation.selections) data[s.alias] = rootField(operation.type, s, errors);
    } catch (error) {
      return sendJson(res, 200, { data: null, errors: [{ message: error instanceof Error ? error.message : String(error) }] });
    }
    return sendJson(res, 200, { data, ...(errors.length ? { errors } : {}) });
  }

  const server = await serveRecording<{ headers: Record<string, string | undefined> }>(handle, {
    extra: (req) => ({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])) }),
  });
  const entryOf = (seedId: string) => entries.get(ids.get(seedId)!)!;
  return {
    ...server,
    token: TOKEN,
    endpoint: `${server.url}/v2/parlance-test/master`,
    entries,
    ids,
    rateLimitNext: (s) => rateLimit.arm(s),
    complexityNext: () => complexity.arm(true),
    beforeNextMutation: (change) => beforeMutation.arm(change),
    edit(seedId, locale, text) {
      const entry = entryOf(seedId);
      entry.values.set(locale, { ...{ subtitle: null, body: null }, ...entry.values.get(locale), ...{ title: text } });
      entry.updatedAt = new Date().toISOString();
    },
    title: (seedId, locale) => entryOf(seedId).values.get(locale)?.title,
    remove: (seedId) => void entries.delete(ids.get(seedId)!),
    webhook(seedId, secret, hook = {}) {
      const entry = entryOf(seedId);
      const body = JSON.stringify({ operation: hook.operation ?? 'update', data: { __typename: hook.typename ?? 'Article', id: entry.id, stage: 'DRAFT', slug: entry.slug, ...entry.values.get(main), updatedAt: entry.updatedAt } });
      const at = hook.at ?? Date.now();
      // As hygraph/hygraph-utils generateWebhookSignature builds it.
      const payload = JSON.stringify({ Body: body, EnvironmentName: 'master', TimeStamp: at }).split('').map((c) => (c === '&' ? '\\\\u0026' : c === '<' ? '\\\\u003c' : c === '>' ? '\\\\u003e' : c)).join('');
      const sign = createHmac('sha256', secret).update(payload).digest('base64');
      return { headers: { 'content-type': 'application/json', 'gcms-signature': `sign=${sign}, env=master, t=${at}` }, body };
    },
  };
}

/** The acceptance kit's fixture: the SEED strings as `Article` entries whose localized `title` holds them in `en`. */
export async function hygraphFixture(): Promise<RemoteFixture> {
  const mock = await startHygraphMock();
  return cmsFixture({
    connector: 'hygraph',
    settings: { endpoint: mock.endpoint, models: [{ model: 'Article', fields: ['title'] }] },
    secrets: { token: mock.token },
    badSecrets: { token: 'revoked-permanent-auth-token' },
    edit: (id, locale, text) => mock.edit(id, locale, text),
    held: (id, locale) => mock.title(id, locale),
    sourceCount: () => [...mock.entries.values()].filter((e) => typeof e.values.get('en')?.title === 'string').length,
    webhook: (id, secret) => mock.webhook(id, secret),
    server: mock,
  });
}
