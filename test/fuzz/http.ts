/**
 * The HTTP fuzzer: starts the real service in-process, reads /v1/openapi.json, and calls every operation with inputs
 * that violate its schema. Every answer must be a 4xx problem+json with a `detail`, never a 5xx or a stack trace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService } from '../helpers/service.js';
import { createRng, type Rng } from './mutate.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
};

type BodyInit = string | Buffer | FormData;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { required: boolean; content: Record<string, Schema> };
}

interface Case {
  label: string;
  /** False where the input may legitimately be ignored (an extra field, an odd free-text query): then only "no 5xx, no stack trace". */
  mustRefuse: boolean;
  path: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body?: BodyInit;
}

export interface HttpFuzzResult {
  operations: number;
  requests: number;
  refused: number;
  accepted: number;
  failures: number;
  statuses: Record<string, number>;
  ms: number;
}

/** Placeholders for path parameters that name nothing: a refusal is a 404 or a 422. */
const NO_SUCH_ID = 'fuzz-no-such-id';
const STACK = /\n\s+at .+[(:]\d+|node_modules\/|\.ts:\d+:\d+|(?:Type|Reference|Range|Syntax)Error:/;
/** Percent-encodings that are not UTF-8, not percent-encodings at all, NUL, traversal, or just long. */
const BAD_ENCODINGS = ['%FF%FE', '%C0%AF', '%ED%A0%80', '%ZZ', '%', '%E2%82', '%00', '..%2F..%2Fetc%2Fpasswd', '%5C..%5C', 'x'.repeat(5000)];

function resolver(doc: { components?: { schemas?: Record<string, Schema> } }) {
  return function resolve(schema?: Schema): Schema {
    let s = schema ?? {};
    for (let depth = 0; s.$ref && depth < 20; depth++) s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')] ?? {};
    if (s.allOf) return s.allOf.map(resolve).reduce((a, b) => ({ ...a, ...b, properties: { ...a.properties, ...b.properties }, required: [...(a.required ?? []), ...(b.required ?? [])] }), {});
    return s;
  };
}

const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
const nullable = (s: Schema, resolve: (s?: Schema) => Schema): boolean =>
  types(s).includes('null') || [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((o) => types(resolve(o)).includes('null'));

/** A value the schema accepts, as far as a generator can tell without patterns; the base that single mutations break. */
function example(schema: Schema | undefined, resolve: (s?: Schema) => Schema, depth = 0): unknown {
  const s = resolve(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options) return example(options.find((o) => !types(resolve(o)).includes('null')) ?? options[0], resolve, depth);
  const type = types(s).find((t) => t !== 'null');
  if (type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    if (depth < 4) for (const name of s.required ?? []) out[name] = example(s.properties?.[name], resolve, depth + 1);
    return out;
  }
  if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => example(s.items, resolve, depth + 1));
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (s.format === 'email') return 'fuzz@example.com';
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com/hook';
  if (s.format === 'date-time') return '2030-01-01T00:00:00Z';
  return 'x'.repeat(Math.max(1, s.minLength ?? 1));
}

/** Values that break one property's schema, each with a label. */
function breakers(schema: Schema, resolve: (s?: Schema) => Schema): [string, unknown][] {
  const s = resolve(schema);
  const out: [string, unknown][] = [];
  const t = types(s).filter((x) => x !== 'null');
  const canBeNull = nullable(schema, resolve) || nullable(s, resolve);
  const variants = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])].map(resolve);
  const allTypes = new Set(variants.flatMap(types));
  if (!allTypes.has('number') && !allTypes.has('integer')) out.push(['a number', 12345]);
  if (!allTypes.has('string') && variants.every((v) => !v.enum && v.const === undefined)) out.push(['a string', 'fuzz']);
  if (!allTypes.has('object')) out.push(['an object', { fuzz: true }]);
  if (!allTypes.has('array')) out.push(['an array', ['fuzz']]);
  if (!allTypes.has('boolean')) out.push(['a boolean', true]);
  if (!canBeNull) out.push(['null', null]);
  if (s.enum) out.push(['a value outside the enum', 'fuzz-not-in-enum']);
  if (s.maxLength !== undefined) out.push([`a string over maxLength ${s.maxLength}`, 'x'.repeat(s.maxLength + 1)]);
  if (s.minLength !== undefined && s.minLength > 0) out.push([`a string under minLength ${s.minLength}`, '']);
  if (s.maximum !== undefined) out.push([`a number over maximum ${s.maximum}`, s.maximum + 1]);
  if (s.minimum !== undefined) out.push([`a number under minimum ${s.minimum}`, s.minimum - 1]);
  if (t.includes('integer')) out.push(['a fraction', 1.5]);
  if (s.maxItems !== undefined) out.push([`an array over maxItems ${s.maxItems}`, Array.from({ length: s.maxItems + 1 }, () => example(s.items, resolve))]);
  return out;
}

function jsonCases(schema: Schema, resolve: (s?: Schema) => Schema, base: Omit<Case, 'label' | 'mustRefuse'>): Case[] {
  const s = resolve(schema);
  const valid = example(s, resolve) as Record<string, unknown>;
  const json = { 'content-type': 'application/json' };
  const cases: Case[] = [];
  const add = (label: string, mustRefuse: boolean, body: BodyInit, headers: Record<string, string> = json) =>
    cases.push({ ...base, label, mustRefuse, body, headers: { ...base.headers, ...headers } });
  add('body: malformed JSON', true, '{"a": ');
  add('body: empty', s.required?.length !== 0 || types(s).includes('array'), '');
  add('body: invalid UTF-8 in a JSON string', true, Buffer.concat([Buffer.from('{"fuzz": "'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('"}')]));
  add('body: JSON nested 10,000 levels', true, '['.repeat(10_000) + ']'.repeat(10_000));
  for (const [label, value] of [['an array', [valid]], ['a number', 42], ['null', null], ['a string', 'fuzz']] as const) add(`body: ${label} instead of an object`, true, JSON.stringify(value));
  add('body: text/plain content type', true, JSON.stringify(valid), { 'content-type': 'text/plain' });
  add('body: form content type', true, 'a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' });
  add('body: no content type', true, JSON.stringify(valid), {});
  add('body: an extra field', false, JSON.stringify({ ...valid, fuzz_extra_field: 'x' }));
  for (const name of s.required ?? []) {
    const { [name]: _, ...rest } = valid;
    add(`body: required ${name} missing`, true, JSON.stringify(rest));
  }
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    for (const [label, value] of breakers(prop, resolve)) add(`body: ${name} is ${label}`, true, JSON.stringify({ ...valid, [name]: value }));
    if (types(resolve(prop)).includes('string')) add(`body: ${name} holds NUL and a lone surrogate`, false, JSON.stringify({ ...valid, [name]: 'a\u0000b\ud800' }));
  }
  return cases;
}

function multipartCases(schema: Schema, resolve: (s?: Schema) => Schema, base: Omit<Case, 'label' | 'mustRefuse'>, maxUploadBytes: number): Case[] {
  const s = resolve(schema);
  const cases: Case[] = [];
  const form = (fields: Record<string, string | Blob>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) if (v instanceof Blob) f.set(k, v, 'en.json');
    else f.set(k, v);
    return f;
  };
  const fileField = Object.entries(s.properties ?? {}).find(([, p]) => resolve(p).format === 'binary' || types(resolve(p)).includes('string') && resolve(p).format === 'binary')?.[0] ?? 'file';
  const good = { [fileField]: new Blob(['{"fuzz": "Fuzz"}']) } as Record<string, string | Blob>;
  for (const name of s.required ?? []) if (name !== fileField) good[name] = String(example(s.properties?.[name], resolve));
  const add = (label: string, mustRefuse: boolean, body: BodyInit, headers: Record<string, string> = {}) => cases.push({ ...base, label, mustRefuse, body, headers: { ...base.headers, ...headers } });
  add('multipart: no boundary', true, 'garbage', { 'content-type': 'multipart/form-data' });
  add('multipart: truncated body', true, '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc', { 'content-type': 'multipart/form-data; boundary=b' });
  add(`multipart: ${fileField} missing`, true, form(Object.fromEntries(Object.entries(good).filter(([k]) => k !== fileField))));
  add(`multipart: ${fileField} is text, not a file`, true, form({ ...good, [fileField]: 'not a file' }));
  add(`multipart: ${fileField} over MAX_UPLOAD_BYTES`, true, form({ ...good, [fileField]: new Blob([new Uint8Array(maxUploadBytes + 1).fill(0x61)]) }));
  add(`multipart: ${fileField} of invalid UTF-8`, true, form({ ...good, format: 'json', [fileField]: new Blob([Uint8Array.of(0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d)]) }));
  add(`multipart: ${fileField} empty`, false, form({ ...good, [fileField]: new Blob([]) }));
  add('multipart: an extra field', false, form({ ...good, fuzz_extra_field: 'x' }));
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    if (name === fileField) continue;
    const p = resolve(prop);
    if (p.enum) add(`multipart: ${name} outside the enum`, true, form({ ...good, [name]: 'fuzz-not-in-enum' }));
    if (p.maxLength !== undefined) add(`multipart: ${name} over maxLength`, true, form({ ...good, [name]: 'x'.repeat(p.maxLength + 1) }));
    for (const bad of ['%FF', '\u0000', 'x'.repeat(5000), '../../etc/passwd']) add(`multipart: ${name} is ${JSON.stringify(bad.slice(0, 20))}`, false, form({ ...good, [name]: bad }));
  }
  return cases;
}

function operationCases(op: Operation, resolve: (s?: Schema) => Schema, maxUploadBytes: number): Case[] {
  const pathValues = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, NO_SUCH_ID]));
  const baseQuery: [string, string][] = op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(example(p.schema, resolve))]);
  const base = { path: pathValues, query: baseQuery, headers: {} };
  const cases: Case[] = [];
  for (const p of op.parameters) {
    const schema = resolve(p.schema);
    if (p.in === 'path') {
      for (const bad of BAD_ENCODINGS) cases.push({ ...base, label: `path ${p.name} = ${bad.slice(0, 24)}`, mustRefuse: true, path: { ...pathValues, [p.name]: bad } });
    } else if (p.in === 'query') {
      const others = baseQuery.filter(([n]) => n !== p.name);
      if (p.required) cases.push({ ...base, label: `query ${p.name} missing`, mustRefuse: true, query: others });
      const numeric = types(schema).some((t) => t === 'integer' || t === 'number');
      const bad: [string, string, boolean][] = numeric
        ? [['abc', 'abc', true], ['-1', '-1', schema.minimum !== undefined && schema.minimum > -1], ['1e999', '1e999', true], ['2^70', '1180591620717411303424', true], ['1.5', '1.5', types(schema).includes('integer')]]
        : [];
      if (schema.enum) bad.push(['outside the enum', 'fuzz-not-in-enum', true]);
      if (schema.maxLength !== undefined) bad.push(['over maxLength', 'x'.repeat(schema.maxLength + 1), true]);
      for (const enc of BAD_ENCODINGS) bad.push([enc.slice(0, 24), enc, numeric || schema.enum !== undefined]);
      for (const [label, value, mustRefuse] of bad) cases.push({ ...base, label: `query ${p.name} = ${label}`, mustRefuse, query: [...others, [p.name, value]] });
      cases.push({ ...base, label: `query ${p.name} repeated`, mustRefuse: false, query: [...others, [p.name, 'a'], [p.name, 'b']] });
    } else if (p.in === 'header') {
      for (const value of ['x'.repeat(10_000), '\u00ff\u00fe']) cases.push({ ...base, label: `header ${p.name} = ${value.slice(0, 8)}…`, mustRefuse: false, headers: { [p.name]: value } });
    }
  }
  cases.push({ ...base, label: 'an unknown query parameter', mustRefuse: false, query: [...baseQuery, ['fuzz_extra', '%FF']] });
  for (const [type, schema] of Object.entries(op.body?.content ?? {})) {
    if (type === 'application/json') cases.push(...jsonCases(schema, resolve, base));
    else if (type === 'multipart/form-data') cases.push(...multipartCases(schema, resolve, base, maxUploadBytes));
    else {
      for (const [label, body] of [
        ['malformed', '<tmx version="1.4"><body><tu>'],
        ['invalid UTF-8', Buffer.from([0x3c, 0x74, 0xff, 0xfe, 0x3e])],
        ['empty', ''],
      ] as const) cases.push({ ...base, label: `${type} body: ${label}`, mustRefuse: true, headers: { 'content-type': type }, body });
    }
  }
  if (!op.body) cases.push({ ...base, label: 'an unexpected JSON body', mustRefuse: false, headers: { 'content-type': 'application/json' }, body: '{"fuzz": [' });
  return cases;
}

function urlOf(baseUrl: string, op: Operation, c: Case): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = c.path[name] ?? NO_SUCH_ID;
    // Bad encodings go on the wire as written; anything else is encoded as a client would.
    return /%|\.\./.test(v) ? v : encodeURIComponent(v);
  });
  const query = c.query.map(([k, v]) => `${encodeURIComponent(k)}=${/%/.test(v) ? v : encodeURIComponent(v)}`).join('&');
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}

/** What is wrong with an answer, or undefined. */
async function judge(res: Response, c: Case): Promise<string | undefined> {
  const text = await res.text();
  if (res.status >= 500) return `HTTP ${res.status}: ${text.slice(0, 300)}`;
  if (STACK.test(text)) return `a stack trace or source path in the body (HTTP ${res.status}): ${text.slice(0, 300)}`;
  if (res.status < 400 && c.mustRefuse) return `accepted (HTTP ${res.status}) an input that violates the schema: ${text.slice(0, 200)}`;
  if (res.status >= 400) {
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/problem+json')) return `HTTP ${res.status} with content-type '${type}', not application/problem+json: ${text.slice(0, 200)}`;
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      return `HTTP ${res.status} problem+json that is not JSON: ${text.slice(0, 200)}`;
    }
    if (typeof detail !== 'string' || detail.trim() === '') return `HTTP ${res.status} problem without a detail: ${text.slice(0, 200)}`;
  }
  return undefined;
}

/** Session routes need a cookie: the first person to sign up owns the seeded organisation. */
async function signUp(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: 'fuzz-owner@example.com', password: 'correct horse battery staple', name: 'Fuzz' }),
  });
  const cookie = res.headers.getSetCookie().find((h) => h.startsWith('parlance_session='));
  if (!cookie) throw new Error(`sign-up failed: HTTP ${res.status} ${await res.text()}`);
  return cookie.split(';')[0]!;
}

export async function fuzzHttp(options: { seed: number; artifactsDir: string; log: (line: string) => void }): Promise<HttpFuzzResult> {
  const started = Date.now();
  const maxUploadBytes = 65_536;
  const service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '1000000', MAX_UPLOAD_BYTES: String(maxUploadBytes) } });
  const result: HttpFuzzResult = { operations: 0, requests: 0, refused: 0, accepted: 0, failures: 0, statuses: {}, ms: 0 };
  try {
    const cookie = await signUp(service.url);
    const doc = (await (await fetch(`${service.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> } }>>;
      components?: { schemas?: Record<string, Schema> };
    };
    const resolve = resolver(doc);
    const operations: Operation[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const content = op.requestBody?.content;
        operations.push({
          method: method.toUpperCase(),
          path,
          parameters: op.parameters ?? [],
          ...(content ? { body: { required: op.requestBody?.required === true, content: Object.fromEntries(Object.entries(content).map(([t, c]) => [t, c.schema ?? {}])) } } : {}),
        });
      }
    }
    // Signing out ends the session the other /v1/auth calls use: last.
    operations.sort((a, b) => Number(a.path === '/v1/auth/sign-out') - Number(b.path === '/v1/auth/sign-out'));
    const rng: Rng = createRng(options.seed);
    for (const op of operations) {
      result.operations += 1;
      const cases = operationCases(op, resolve, maxUploadBytes);
      // The seed orders each operation's cases, so a rerun with the same seed sends the same sequence.
      for (let i = cases.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [cases[i], cases[j]] = [cases[j]!, cases[i]!];
      }
      for (const c of cases) {
        const url = urlOf(service.url, op, c);
        const headers: Record<string, string> = { authorization: `Bearer ${service.token}`, origin: service.url, cookie, ...c.headers };
        let problem: string | undefined;
        const send = () => fetch(url, { method: op.method, headers, ...(c.body !== undefined && op.method !== 'GET' && op.method !== 'DELETE' ? { body: c.body } : {}) });
        try {
          // Once more on a dropped connection: the server closes a keep-alive connection after refusing an oversized body unread.
          const res = await send().catch(send);
          result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
          problem = await judge(res, c);
          if (res.status < 400) result.accepted += 1;
          else result.refused += 1;
        } catch (error) {
          problem = `no answer: ${error instanceof Error ? `${error.message} (${String((error.cause as Error | undefined)?.message ?? '')})` : String(error)}`;
        }
        result.requests += 1;
        if (problem) {
          result.failures += 1;
          const description = `${op.method} ${op.path}, FUZZ_SEED=${options.seed}: ${c.label}\n  ${problem}`;
          options.log(`  FAIL ${description}`);
          mkdirSync(options.artifactsDir, { recursive: true });
          writeFileSync(join(options.artifactsDir, `http-${options.seed}-${result.failures}.txt`), `${description}\n${op.method} ${url}\n${JSON.stringify(c.headers)}\n`);
        }
      }
    }
  } finally {
    await service.stop();
  }
  result.ms = Date.now() - started;
  return result;
}
