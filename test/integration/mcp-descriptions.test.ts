/**
 * Every value a tool's description names is one the service accepts: the tools as an MCP client lists them (over
 * Streamable HTTP, against the real service), checked against their input schemas, and each schema's enum against what
 * the service accepts (its OpenAPI document, the format registry, its locale table and its ids).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABILITIES } from '../../server/services/tokens/token-fns.js';
import { IMPLEMENTED_FORMATS, PLURAL_CATEGORIES } from '../../src/core/formats/index.js';
import { checkLocale } from '../../src/core/locales/locales.js';
import { TOOL_ABILITIES } from '../../src/mcp/server.js';
import { startService, type TestService } from '../helpers/service.js';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  description?: string;
  additionalProperties?: unknown;
  $ref?: string;
  properties?: Record<string, JsonSchema>;
}
interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, JsonSchema> };
}

/** What the service accepts for each enum field of a tool, keyed `tool.field`; an enum field missing here fails the test. */
type Vocabularies = Record<string, readonly string[]>;

/** 'json', 'pt-BR', 'bat_…': a single-quoted value (not an apostrophe: "project's", "rows'"). */
const QUOTED = /(?<![\p{L}\p{N}])'([^'\s]+)'(?![\p{L}\p{N}])/gu;
/** `{"de": …}`: a key a description shows in a JSON example. */
const JSON_KEY = /"([^"\s]+)"\s*:/g;
/** A lower-case identifier such as 'held' or 'android-xml': the way a description names an enum-like value. */
const IDENTIFIER = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/;
/** 'bat_…': an id's prefix. */
const ID_EXAMPLE = /^([a-z]+_)…$/;

const quoted = (text: string | undefined) => [...(text ?? '').matchAll(QUOTED)].map((m) => m[1]!);
const jsonKeys = (text: string | undefined) => [...(text ?? '').matchAll(JSON_KEY)].map((m) => m[1]!);

/** The enum a property accepts, itself or per item of an array; undefined for free values. */
function enumOf(schema: JsonSchema): string[] | undefined {
  const values = schema.enum ?? schema.items?.enum ?? schema.anyOf?.find((s) => s.enum)?.enum;
  return values?.map(String);
}

/**
 * The problems of one tool's descriptions: a quoted value that its field's enum does not hold; an identifier-like value
 * in a field without an enum (nothing could check it); a locale the service does not know; an id prefix other than the
 * ids the service gives; in the tool's own description, a value neither one of its enums nor its ability; an enum with
 * a value the service refuses.
 */
function descriptionProblems(tool: ListedTool, context: { vocabularies: Vocabularies; abilities: Record<string, string>; idPrefixes: Record<string, string> }): string[] {
  const problems: string[] = [];
  const properties = tool.inputSchema.properties ?? {};
  const allEnums = new Set<string>();

  for (const [field, schema] of Object.entries(properties)) {
    const where = `${tool.name}.${field}`;
    const accepted = enumOf(schema);
    if (accepted) {
      accepted.forEach((v) => allEnums.add(v));
      const service = context.vocabularies[where];
      if (!service) problems.push(`${where} has an enum (${accepted.join(', ')}) but the test knows no service vocabulary to check it against`);
      else for (const value of accepted) if (!service.includes(value)) problems.push(`${where} offers '${value}', which the service does not accept (it accepts ${service.join(', ')})`);
    }
    for (const value of quoted(schema.description)) {
      if (accepted) {
        if (!accepted.includes(value)) problems.push(`${where}'s description names '${value}', which its enum (${accepted.join(', ')}) does not accept`);
      } else if (field === 'locale' || field === 'locales') {
        if (!checkLocale(value).ok) problems.push(`${where}'s description names '${value}', which is not a locale the service accepts`);
      } else if (ID_EXAMPLE.test(value)) {
        const prefix = ID_EXAMPLE.exec(value)![1]!;
        const real = context.idPrefixes[where];
        if (real !== prefix) problems.push(`${where}'s description names ids '${value}', but the service's ids here start '${real ?? '(none seen)'}'`);
      } else if (IDENTIFIER.test(value)) {
        problems.push(`${where}'s description names '${value}' as a value, but the field has no enum to check it against: make it an enum of what the service accepts, or do not quote it`);
      }
    }
    // Keys of a JSON example: plural forms by CLDR category, or translations by locale.
    for (const key of jsonKeys(schema.description)) {
      const ok = field === 'plurals' ? (PLURAL_CATEGORIES as readonly string[]).includes(key) : checkLocale(key).ok;
      if (!ok) problems.push(`${where}'s description shows the key "${key}", which the service does not accept there`);
    }
  }

  const ability = context.abilities[tool.name];
  for (const value of quoted(tool.description)) {
    if (value === ability) continue;
    if (!allEnums.has(value)) problems.push(`${tool.name}'s description names '${value}', which none of its fields accepts (${[...allEnums].join(', ') || 'no enums'})`);
  }
  return problems;
}

/** The enum of a query parameter, or of a JSON body's property, in the service's OpenAPI document. */
function openApiEnum(doc: OpenApi, path: string, method: string, name: string): string[] {
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI document`);
  const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema);
  const parameter = operation.parameters?.find((p) => p.name === name);
  const schema = parameter ? resolve(parameter.schema) : resolve(resolve(operation.requestBody?.content['application/json']?.schema)?.properties?.[name]);
  const values = schema?.enum ?? resolve(schema?.anyOf?.find((s) => s.enum || s.$ref))?.enum;
  if (!values) throw new Error(`${method.toUpperCase()} ${path} has no enum '${name}'`);
  return values.map(String);
}
interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { name: string; schema?: JsonSchema }[]; requestBody?: { content: Record<string, { schema?: JsonSchema }> } }>>;
  components: { schemas: Record<string, JsonSchema> };
}

let service: TestService;
let client: Client;
beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  client = new Client({ name: 'parlance-descriptions-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${service.token}` } } }));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await service?.stop();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
const textOf = (result: CallToolResult) => (result.content[0]?.type === 'text' ? result.content[0].text : '');

describe('tool descriptions name only values the service accepts', () => {
  let context: Parameters<typeof descriptionProblems>[1];

  beforeAll(async () => {
    const doc = (await (await service.api('/v1/openapi.json')).json()) as OpenApi;
    // Real ids from the tools themselves, so an id example that no longer matches what the service hands out fails.
    const pushed = await call('push_file', { path: 'locales/ids/en.json', content: JSON.stringify({ a: 'A' }), format: 'json', locales: ['de'] });
    const locked = await call('lock_glossary_term', { term: 'Parlance' });
    const batchId = (pushed.structuredContent as { batch: { id: string } }).batch.id;
    const termId = (locked.structuredContent as { term: { id: string } }).term.id;
    const prefix = (id: string) => /^[a-z]+_/.exec(id)![0];
    context = {
      vocabularies: {
        'push_file.format': IMPLEMENTED_FORMATS,
        'pull_file.format': IMPLEMENTED_FORMATS,
        'pull_file.missing': openApiEnum(doc, '/v1/pull', 'get', 'missing'),
        'list_batches.status': openApiEnum(doc, '/v1/batches', 'get', 'status'),
        'get_translation.state': openApiEnum(doc, '/v1/translations', 'get', 'state'),
        'upsert_translation.review': openApiEnum(doc, '/v1/translations/{key}/{locale}/review', 'post', 'decision'),
      },
      abilities: TOOL_ABILITIES,
      idPrefixes: Object.fromEntries([
        ...['get_batch.id', 'retry_batch.id', 'cancel_batch.id'].map((f) => [f, prefix(batchId)]),
        ...['update_glossary_term.id', 'delete_glossary_term.id'].map((f) => [f, prefix(termId)]),
      ]),
    };
  });

  it('checks every tool: quoted values against its enums, enums against the service, locales, ids and abilities', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(16);
    expect(tools.flatMap((t) => descriptionProblems(t as ListedTool, context))).toEqual([]);
    for (const t of tools) expect(ABILITIES, t.name).toContain(TOOL_ABILITIES[t.name as keyof typeof TOOL_ABILITIES]);
    // The values the issue found wrong: push_file now offers the registry's ids, 'android_xml' among them.
    const format = (tools.find((t) => t.name === 'push_file') as ListedTool).inputSchema.properties!.format!;
    expect(enumOf(format)).toEqual(IMPLEMENTED_FORMATS);
    expect(format.description).not.toContain('android-xml');
  });

  it('finds a value the schema does not accept (the check can fail)', () => {
    const stale: ListedTool = {
      name: 'push_file',
      description: "Upload a file, e.g. in 'json_lines'. Needs the token ability 'push'.",
      inputSchema: {
        properties: {
          format: { type: 'string', description: "Format id such as 'json', 'po', 'android-xml'." },
          kind: { type: 'string', enum: ['json', 'jsonl'], description: "Either 'json' or 'jsonl'." },
          locale: { type: 'string', description: "e.g. 'de' or 'english'." },
          plurals: { type: 'object', description: 'e.g. {"one": "…", "single": "…"}.' },
        },
      },
    };
    const problems = descriptionProblems(stale, { ...context, vocabularies: { ...context.vocabularies, 'push_file.kind': ['json'] } });
    expect(problems).toEqual([
      "push_file.format's description names 'json' as a value, but the field has no enum to check it against: make it an enum of what the service accepts, or do not quote it",
      "push_file.format's description names 'po' as a value, but the field has no enum to check it against: make it an enum of what the service accepts, or do not quote it",
      "push_file.format's description names 'android-xml' as a value, but the field has no enum to check it against: make it an enum of what the service accepts, or do not quote it",
      "push_file.kind offers 'jsonl', which the service does not accept (it accepts json)",
      "push_file.locale's description names 'english', which is not a locale the service accepts",
      'push_file.plurals\'s description shows the key "single", which the service does not accept there',
      "push_file's description names 'json_lines', which none of its fields accepts (json, jsonl)",
    ]);
    const enumStale = { ...stale, inputSchema: { properties: { format: { type: 'string', enum: [...IMPLEMENTED_FORMATS], description: "e.g. 'json' or 'android-xml'." } } } };
    expect(descriptionProblems(enumStale, context)).toEqual([
      "push_file.format's description names 'android-xml', which its enum (" + IMPLEMENTED_FORMATS.join(', ') + ') does not accept',
      "push_file's description names 'json_lines', which none of its fields accepts (" + IMPLEMENTED_FORMATS.join(', ') + ')',
    ]);
  });

  it("refuses a format the service does not know before it reaches the service, naming the ones it accepts", async () => {
    const result = await call('push_file', { path: 'locales/android/strings.xml', content: '<resources/>', format: 'android-xml' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('android_xml');
  });
});
