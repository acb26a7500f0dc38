/** Checks a request against GitHub's own OpenAPI description (@octokit/openapi): the operation, its query parameters and its JSON body. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';

/** The dereferenced variant: every `$ref` already resolved, so schemas compile on their own. */
const SPEC_PATH = join(import.meta.dirname, '../../node_modules/@octokit/openapi/generated/api.github.com.deref.json');

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  method: string;
  template: string;
  segments: string[];
  literalCount: number;
  parameters: Parameter[];
  body: { required: boolean; schema: Schema } | null;
}

/** A request as it went over the wire. */
export interface WireRequest {
  method: string;
  /** Absolute URL or path with query string, as sent (path parameters still percent-encoded). */
  url: string;
  /** The raw body; empty or undefined when none was sent. */
  body?: string | undefined;
}

let index: Map<string, Operation[]> | undefined;
const validators = new Map<string, ValidateFunction>();
// Formats the spec names but Ajv does not know (int32, binary, repo.nwo…) are annotations here, not constraints.
const ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateSchema: false });
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
ajv.addFormat('uri', (value: string) => URL.canParse(value));
// Query values arrive as strings; coercion lets `per_page=100` meet `type: integer`.
const queryAjv = new Ajv({ strict: false, allErrors: true, logger: false, validateSchema: false, coerceTypes: true });

/** Operations by method, loaded once per process (the file is large). */
function operations(): Map<string, Operation[]> {
  if (index) return index;
  const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  index = new Map();
  for (const [template, item] of Object.entries(spec.paths)) {
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].includes(method)) continue;
      const op = raw as { parameters?: Parameter[]; requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> } };
      const segments = template.split('/');
      const jsonSchema = op.requestBody?.content?.['application/json']?.schema;
      const list = index.get(method.toUpperCase()) ?? [];
      list.push({
        method: method.toUpperCase(),
        template,
        segments,
        literalCount: segments.filter((s) => !isParam(s)).length,
        parameters: [...shared, ...(op.parameters ?? [])],
        body: jsonSchema ? { required: op.requestBody?.required ?? false, schema: jsonSchema } : null,
      });
      index.set(method.toUpperCase(), list);
    }
  }
  return index;
}

function isParam(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

/** The operation a concrete path belongs to; the most literal template wins, as in GitHub's own router. */
export function findOperation(method: string, path: string): Operation | undefined {
  const segments = path.split('/');
  const candidates = (operations().get(method.toUpperCase()) ?? []).filter(
    (op) => op.segments.length === segments.length && op.segments.every((s, i) => (isParam(s) ? segments[i] !== '' : s === segments[i])),
  );
  return candidates.sort((a, b) => b.literalCount - a.literalCount)[0];
}

/**
 * OpenAPI 3.0 schema → JSON Schema for Ajv: `nullable: true` becomes a `null` type (and a `null` enum member);
 * without a `type` it becomes `anyOf [schema, null]`, which Ajv's own `nullable` support rejects.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example' || key.startsWith('x-')) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, toJsonSchema(s)]));
    } else if (key === 'enum' || key === 'required' || key === 'default') {
      out[key] = value;
    } else {
      out[key] = toJsonSchema(value);
    }
  }
  if ((schema as Schema).nullable !== true) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

function validatorFor(key: string, build: () => Schema, engine: Ajv): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = engine.compile(build());
    validators.set(key, validate);
  }
  return validate;
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');
}

/** Every way the request departs from GitHub's description; empty when it conforms. */
export function githubRequestProblems(request: WireRequest): string[] {
  const url = new URL(request.url, 'https://api.github.com');
  const method = request.method.toUpperCase();
  const op = findOperation(method, url.pathname);
  if (!op) return [`${method} ${url.pathname} matches no operation in GitHub's OpenAPI description`];
  const where = `${method} ${op.template}`;
  const problems: string[] = [];

  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const query = Object.fromEntries(url.searchParams);
  for (const name of Object.keys(query)) {
    if (!queryParams.some((p) => p.name === name)) problems.push(`${where}: query parameter '${name}' is not defined`);
  }
  for (const p of queryParams) if (p.required && !(p.name in query)) problems.push(`${where}: required query parameter '${p.name}' is missing`);
  const known = queryParams.filter((p) => p.name in query);
  if (known.length > 0) {
    const validate = validatorFor(
      `${where}?${known.map((p) => p.name).join('&')}`,
      () => ({ type: 'object', properties: Object.fromEntries(known.map((p) => [p.name, toJsonSchema(p.schema ?? {})])) }),
      queryAjv,
    );
    if (!validate({ ...query })) problems.push(`${where}: query ${url.search} is invalid: ${describeErrors(validate)}`);
  }

  const raw = request.body ?? '';
  if (raw === '') {
    if (op.body?.required) problems.push(`${where}: the request body is required but none was sent`);
    return problems;
  }
  if (!op.body) return [...problems, `${where}: takes no JSON body, but one was sent: ${raw.slice(0, 200)}`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [...problems, `${where}: the body is not JSON: ${raw.slice(0, 200)}`];
  }
  const schema = op.body.schema;
  const validate = validatorFor(`${where} body`, () => toJsonSchema(schema) as Schema, ajv);
  if (!validate(parsed)) problems.push(`${where}: the body does not match the request schema: ${describeErrors(validate)}`);
  return problems;
}
