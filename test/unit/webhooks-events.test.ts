// The webhook event catalog: every example is a valid delivery under both its zod schema and its published JSON Schema, and both reject the same mistakes.
import { OpenAPIHono } from '@hono/zod-openapi';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AppDeps, AppEnv } from '../../server/http/context.js';
import { toApiError, problemResponse } from '../../server/http/problem.js';
import { createLogger } from '../../server/logger.js';
import { webhookEventsRoutes } from '../../server/routes/v1/webhook-events.js';
import type { AuthContext } from '../../server/services/tokens/token-service.js';
import type { Ability } from '../../server/services/tokens/token-fns.js';
import { EVENT_DESCRIPTIONS, EVENT_TYPES, EXAMPLES, eventCatalog, eventSchema, type EventData, type EventType } from '../../server/webhooks/events.js';

const catalog = eventCatalog();

function jsonSchemaValidator(type: EventType): ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // zod writes `format: date-time` next to its own pattern; ajv refuses unknown formats, so give it a real check.
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  const item = catalog.items.find((i) => i.type === type);
  if (!item) throw new Error(`catalog has no item for ${type}`);
  return ajv.compile(item.schema);
}

const validators = new Map(EVENT_TYPES.map((type) => [type, jsonSchemaValidator(type)]));

/** Both verdicts on one payload: zod's and ajv's against the published JSON Schema. */
function verdicts(type: EventType, payload: unknown): { zod: boolean; jsonSchema: boolean; ajvErrors: unknown } {
  const validate = validators.get(type)!;
  const jsonSchema = validate(payload);
  return { zod: eventSchema(type).safeParse(payload).success, jsonSchema, ajvErrors: validate.errors };
}

type Path = readonly (string | number)[];

/** A deep copy of `value` with the node at `path` set to `next` (a new key adds an extra property). */
function withValue(value: unknown, path: Path, next: unknown): unknown {
  const copy: unknown = structuredClone(value);
  let node: unknown = copy;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
  (node as Record<string | number, unknown>)[path.at(-1)!] = next;
  return copy;
}

describe('eventCatalog', () => {
  it('lists the 12 kinds once each, in EVENT_TYPES order, each with a description and a draft 2020-12 schema', () => {
    expect(catalog.items.map((i) => i.type)).toEqual([...EVENT_TYPES]);
    expect(new Set(catalog.items.map((i) => i.type)).size).toBe(12);
    for (const item of catalog.items) {
      expect(item.description).toBe(EVENT_DESCRIPTIONS[item.type]);
      expect(item.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(item.example).toBe(EXAMPLES[item.type]);
    }
  });

  it('is the same on every call', () => {
    expect(JSON.stringify(eventCatalog())).toBe(JSON.stringify(catalog));
  });
});

describe.each(EVENT_TYPES)('%s', (type) => {
  const example = EXAMPLES[type];

  it('example is a valid delivery under zod and under the JSON Schema', () => {
    expect(example.type).toBe(type);
    expect(eventSchema(type).parse(example)).toEqual(example);
    // A delivery is JSON on the wire; validate what a receiver would parse.
    const { jsonSchema, ajvErrors } = verdicts(type, JSON.parse(JSON.stringify(example)));
    expect(ajvErrors).toBeNull();
    expect(jsonSchema).toBe(true);
  });

  it('an extra field in data or in the envelope fails both', () => {
    expect(verdicts(type, withValue(example, ['data', 'unexpected'], 1))).toMatchObject({ zod: false, jsonSchema: false });
    expect(verdicts(type, withValue(example, ['signature'], 'v1,abc'))).toMatchObject({ zod: false, jsonSchema: false });
    expect(verdicts(type, withValue(example, ['project', 'slug'], 'web'))).toMatchObject({ zod: false, jsonSchema: false });
  });

  it('an envelope of another kind, a non-evt id or a non-UTC timestamp fails both', () => {
    const otherType = type === 'qa.completed' ? 'batch.completed' : 'qa.completed';
    expect(verdicts(type, withValue(example, ['type'], otherType))).toMatchObject({ zod: false, jsonSchema: false });
    expect(verdicts(type, withValue(example, ['id'], 'msg_06ee2v74acx5t9npy7rjc5vk92'))).toMatchObject({ zod: false, jsonSchema: false });
    expect(verdicts(type, withValue(example, ['created_at'], '2026-03-12 09:43:18'))).toMatchObject({ zod: false, jsonSchema: false });
  });
});

// One wrong field type per kind, each in a different position (nested objects, list items, records, enums, nullables).
const wrongTypes: [EventType, Path, unknown][] = [
  ['batch.completed', ['data', 'rows', 'total'], '372'],
  ['batch.completed', ['data', 'rows', 'outcomes', 'translated'], 351.5],
  ['batch.failed', ['data', 'batch', 'status'], 'running'],
  ['batch.failed', ['data', 'refused_count'], -1],
  ['batch.completed', ['data', 'refused', 0, 'gate'], 'spelling'],
  ['batch.completed', ['data', 'pull', 'url'], 'https://example.com/locales/de.json'],
  ['key.created', ['data', 'count'], 2.5],
  ['key.updated', ['data', 'keys', 0, 'source'], 42],
  ['key.deleted', ['data', 'truncated'], 'false'],
  ['translation.updated', ['data', 'translations', 0, 'state'], 'machine'],
  ['translation.updated', ['data', 'batch_id'], 'job_06ee2v1hw0bwghvj0qb2x6ts8w'],
  ['translation.reviewed', ['data', 'plurals'], { one: 1 }],
  ['language.added', ['data', 'tag'], 7],
  ['language.removed', ['data', 'name'], false],
  ['glossary.updated', ['data', 'term', 'translations'], ['Pro-Tarif']],
  ['qa.completed', ['data', 'scope'], 'all'],
  ['source_drift.repaired', ['data', 'origin'], 'manual'],
];

describe('a wrong field type fails both validators', () => {
  it.each(wrongTypes)('%s: %j = %j', (type, path, value) => {
    expect(verdicts(type, withValue(EXAMPLES[type], path, value))).toMatchObject({ zod: false, jsonSchema: false });
  });
});

// Every nested object is strict too, not only the top of `data`.
const nestedObjects: [EventType, Path][] = [
  ['batch.completed', ['data', 'batch']],
  ['batch.completed', ['data', 'rows']],
  ['batch.completed', ['data', 'words']],
  ['batch.completed', ['data', 'refused', 0]],
  ['batch.completed', ['data', 'files', 0]],
  ['batch.completed', ['data', 'pull']],
  ['key.created', ['data', 'keys', 0]],
  ['translation.updated', ['data', 'translations', 0]],
  ['glossary.updated', ['data', 'term']],
  ['source_drift.repaired', ['data', 'keys', 0]],
];

describe('an extra field in a nested object fails both validators', () => {
  it.each(nestedObjects)('%s: %j', (type, path) => {
    expect(verdicts(type, withValue(EXAMPLES[type], [...path, 'unexpected'], true))).toMatchObject({ zod: false, jsonSchema: false });
  });
});

describe('lists are capped at 100 items', () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `generated.key_${i}`, source: `Text ${i}` }));

  it('100 keys pass both, 101 fail both', () => {
    const at = (n: number) => withValue(withValue(EXAMPLES['key.created'], ['data', 'keys'], keys(n)), ['data', 'count'], n);
    expect(verdicts('key.created', at(100))).toMatchObject({ zod: true, jsonSchema: true });
    expect(verdicts('key.created', at(101))).toMatchObject({ zod: false, jsonSchema: false });
  });
});

describe('types', () => {
  it('EventData is the precise data shape of each kind', () => {
    expectTypeOf<EventData<'batch.failed'>['batch']['status']>().toEqualTypeOf<'completed' | 'failed'>();
    expectTypeOf<EventData<'translation.reviewed'>['plurals']>().toEqualTypeOf<Record<string, string> | null>();
    expectTypeOf<EventData<'language.added'>>().toEqualTypeOf<{ tag: string; name: string | null }>();
  });
});

describe('GET /events', () => {
  /** The sub-app behind a stand-in for authentication: requireAbility reads only the token's abilities. */
  function appWith(abilities: Ability[]) {
    const log = createLogger('silent');
    const app = new OpenAPIHono<AppEnv>();
    app.use('*', async function fakeAuth(c, next) {
      c.set('auth', { abilities: new Set(abilities) } as unknown as AuthContext);
      await next();
    });
    app.route('/', webhookEventsRoutes({ log } as unknown as AppDeps));
    app.onError((error, c) => problemResponse(c, toApiError(error, log)));
    return app;
  }

  it('returns the catalog to a token with the read ability', async () => {
    const res = await appWith(['read']).request('/events');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(catalog)));
  });

  it('refuses a token without the read ability, naming it', async () => {
    const res = await appWith(['push', 'pull']).request('/events');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'ability_missing', detail: expect.stringContaining("'read'") });
  });
});
