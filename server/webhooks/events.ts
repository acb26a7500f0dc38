/** The 12 webhook event kinds: the exact shape of each delivered body as a zod schema, an example of each, and the catalog built from them. */
import { z } from 'zod';

export const EVENT_TYPES = [
  'batch.completed',
  'batch.failed',
  'key.created',
  'key.updated',
  'key.deleted',
  'translation.updated',
  'translation.reviewed',
  'language.added',
  'language.removed',
  'glossary.updated',
  'qa.completed',
  'source_drift.repaired',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Lists inside one event are capped so a push of 50 000 keys still makes a small delivery; `count` and `truncated` tell the rest. */
export const EVENT_LIST_LIMIT = 100;

// Ids come from server/ids.ts: a type prefix, '_', then lower-case Crockford base32.
const prefixedId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]+$`));
// Timestamps are written with Date#toISOString, so always UTC with a 'Z'.
const Timestamp = z.iso.datetime();
const Count = z.number().int().nonnegative();
const Truncated = z.boolean().describe(`True when more than ${EVENT_LIST_LIMIT} items matched and the list holds only the first ${EVENT_LIST_LIMIT}; \`count\` is the full number.`);
const capped = <T extends z.ZodType>(item: T) => z.array(item).max(EVENT_LIST_LIMIT);

const BatchFinishedData = z
  .object({
    batch: z
      .object({
        id: prefixedId('bat'),
        status: z.enum(['completed', 'failed']),
        path: z.string().nullable().describe("Repository path of the pushed source file; '' for keys pushed without a file."),
        format: z.string().nullable(),
        created_at: Timestamp,
        finished_at: Timestamp,
        error: z.string().nullable().describe('Why the batch failed; null when it completed.'),
      })
      .strict(),
    rows: z
      .object({
        total: Count,
        outcomes: z
          .record(z.string(), Count)
          .describe('Rows per outcome: translated, memory, refused, superseded, kept_human, failed, cancelled.'),
      })
      .strict(),
    words: z.object({ reserved: Count, spent: Count, refunded: Count }).strict(),
    refused: capped(
      z
        .object({
          key: z.string(),
          path: z.string(),
          locale: z.string(),
          gate: z.enum(['placeholders', 'plurals', 'glossary', 'length']).nullable().describe('The gate that refused the row after its corrective retry.'),
          reason: z.string(),
        })
        .strict(),
    ).describe(`Rows held for review instead of written, at most ${EVENT_LIST_LIMIT}; \`refused_count\` is the full number.`),
    refused_count: Count,
    files: z.array(z.object({ path: z.string(), format: z.string().nullable() }).strict()).describe('The source files the batch translated.'),
    pull: z
      .object({
        path: z.string(),
        url: z.string().regex(/^\/v1\/pull\?/).describe('Relative URL of GET /v1/pull for the file, e.g. "/v1/pull?path=locales%2Fen.json".'),
      })
      .strict()
      .nullable()
      .describe('Where to pull the result; null when the batch wrote nothing to pull.'),
  })
  .strict();

const KeysChangedData = z
  .object({
    path: z.string().describe("Repository path of the pushed source file; '' for keys pushed without a file."),
    batch_id: prefixedId('bat').nullable().describe('The batch the push started; null when the push queued no translation.'),
    count: Count,
    keys: capped(z.object({ key: z.string(), source: z.string().nullable().describe('The source text; null for a deleted key.') }).strict()),
    truncated: Truncated,
  })
  .strict()
  .describe('One event per push summarises every key of this kind.');

const TranslationUpdatedData = z
  .object({
    origin: z.enum(['human', 'review', 'batch']).describe('Who wrote the translations: a person through the API, a review decision, or a batch.'),
    batch_id: prefixedId('bat').nullable().describe("The batch that wrote them; null unless origin is 'batch'."),
    count: Count,
    locales: z.array(z.string()),
    translations: capped(
      z
        .object({ key: z.string(), path: z.string(), locale: z.string(), state: z.enum(['accepted', 'flagged', 'approved', 'human']) })
        .strict(),
    ),
    truncated: Truncated,
  })
  .strict();

const TranslationReviewedData = z
  .object({
    key: z.string(),
    path: z.string(),
    locale: z.string(),
    decision: z.enum(['approve', 'reject']),
    state: z.enum(['approved', 'human', 'rejected']).describe('The translation state after the decision.'),
    text: z.string(),
    plurals: z.record(z.string(), z.string()).nullable().describe('Plural forms by CLDR category; null for a plain string.'),
  })
  .strict();

const LanguageData = z
  .object({
    tag: z.string().describe("BCP-47 tag, e.g. 'pt-BR'."),
    name: z.string().nullable().describe('English name; null for a tag outside the CLDR-derived table.'),
  })
  .strict();

const GlossaryUpdatedData = z
  .object({
    action: z.enum(['created', 'updated', 'deleted']),
    term: z
      .object({
        id: prefixedId('gls'),
        term: z.string(),
        translations: z.record(z.string(), z.string()),
        case_sensitive: z.boolean(),
        forbidden: z.boolean(),
        notes: z.string().nullable(),
      })
      .strict()
      .describe('The term after the change; for a deletion, as it was.'),
    translations_marked_stale: Count.describe('Machine translations containing the term that the next push translates again.'),
  })
  .strict();

const QaCompletedData = z
  .object({
    qa_run_id: prefixedId('qa'),
    checked: Count,
    passed: Count,
    flagged: Count,
    refused: Count,
    scope: z.record(z.string(), z.unknown()).describe('What the run covered, e.g. {"locales": ["de"], "path": "locales/en.json"} or {"rows": 12}.'),
  })
  .strict();

const SourceDriftRepairedData = z
  .object({
    origin: z
      .enum(['batch', 'import'])
      .describe("'batch': a batch translated drifted rows again; 'import': a hand edit of a managed translation file was imported as a human translation."),
    batch_id: prefixedId('bat').nullable().describe("The batch that repaired the rows; null for an import."),
    count: Count,
    locales: z.array(z.string()),
    keys: capped(z.object({ key: z.string(), path: z.string(), locale: z.string() }).strict()),
    truncated: Truncated,
  })
  .strict();

/** The `data` schema of each kind; kinds that share a schema share the constant. */
export const EVENT_DATA = {
  'batch.completed': BatchFinishedData,
  'batch.failed': BatchFinishedData,
  'key.created': KeysChangedData,
  'key.updated': KeysChangedData,
  'key.deleted': KeysChangedData,
  'translation.updated': TranslationUpdatedData,
  'translation.reviewed': TranslationReviewedData,
  'language.added': LanguageData,
  'language.removed': LanguageData,
  'glossary.updated': GlossaryUpdatedData,
  'qa.completed': QaCompletedData,
  'source_drift.repaired': SourceDriftRepairedData,
} as const satisfies { [T in EventType]: z.ZodType };

export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;

/** The delivered JSON body of one event. */
export type Envelope<T extends EventType> = {
  id: string;
  type: T;
  created_at: string;
  project: { id: string; name: string };
  data: EventData<T>;
};

export const EVENT_DESCRIPTIONS: { readonly [T in EventType]: string } = {
  'batch.completed': 'A translation batch finished with every row settled (translated, taken from memory, refused or superseded).',
  'batch.failed': 'A translation batch stopped with an error, for example the provider kept failing or the word allowance ran out.',
  'key.created': 'A push added keys to a source file; one event summarises all keys the push added.',
  'key.updated': "A push changed the source text of keys; one event summarises all keys whose source the push changed.",
  'key.deleted': 'A push removed keys from a source file; one event summarises all keys the push removed.',
  'translation.updated': 'Translations were written: by a batch, by a person through the API, or by a review decision.',
  'translation.reviewed': 'A reviewer approved or rejected one translation.',
  'language.added': 'A target language was added to the project.',
  'language.removed': 'A target language was removed from the project.',
  'glossary.updated': 'A glossary term was created, changed or deleted.',
  'qa.completed': 'A QA run of the quality gates over stored or proposed translations finished.',
  'source_drift.repaired':
    'Translations were brought back in line: a batch translated rows whose source had changed (or that a glossary change marked stale), or a hand edit of a managed translation file was imported as a human translation.',
};

const ProjectRef = z.object({ id: prefixedId('prj'), name: z.string() }).strict();

/** The full envelope schema of one kind, with `type` fixed to that kind. */
export function eventSchema<T extends EventType>(type: T): z.ZodType<Envelope<T>> {
  // TypeScript cannot resolve z.infer of EVENT_DATA[T] while T is still generic; the object below is Envelope<T> field for field.
  const schema = z
    .object({
      id: prefixedId('evt'),
      type: z.literal(type),
      created_at: Timestamp,
      project: ProjectRef,
      data: EVENT_DATA[type],
    })
    .strict()
    .describe(EVENT_DESCRIPTIONS[type]);
  return schema as unknown as z.ZodType<Envelope<T>>;
}

const project = { id: 'prj_06ee2t9x4qk7m3v8c1rzd5hw2b', name: 'Web' };
const batchId = 'bat_06ee2v1hw0bwghvj0qb2x6ts8w';

/** One realistic delivery per kind, exactly as sent; the unit tests check each against its schema. */
export const EXAMPLES: { readonly [T in EventType]: Envelope<T> } = {
  'batch.completed': {
    id: 'evt_06ee2v74acx5t9npy7rjc5vk92',
    type: 'batch.completed',
    created_at: '2026-03-12T09:43:18.204Z',
    project,
    data: {
      batch: { id: batchId, status: 'completed', path: 'locales/en.json', format: 'json', created_at: '2026-03-12T09:41:07.512Z', finished_at: '2026-03-12T09:43:18.197Z', error: null },
      rows: { total: 372, outcomes: { translated: 351, memory: 18, refused: 2, superseded: 1 } },
      words: { reserved: 2140, spent: 1986, refunded: 154 },
      refused: [
        { key: 'cart.items', path: 'locales/en.json', locale: 'ja', gate: 'placeholders', reason: 'placeholder {count} is missing' },
        { key: 'nav.pricing', path: 'locales/en.json', locale: 'de', gate: 'glossary', reason: 'locked term "Pro plan" must be translated as "Pro-Tarif"' },
      ],
      refused_count: 2,
      files: [{ path: 'locales/en.json', format: 'json' }],
      pull: { path: 'locales/en.json', url: '/v1/pull?path=locales%2Fen.json' },
    },
  },
  'batch.failed': {
    id: 'evt_06ee2vaemw4tr5dz4yx7kr83wv',
    type: 'batch.failed',
    created_at: '2026-03-12T10:02:51.930Z',
    project,
    data: {
      batch: {
        id: 'bat_06ee2v9q3m8d4fj2ya7e0nkc6p',
        status: 'failed',
        path: 'config/locales/en.yml',
        format: 'yaml',
        created_at: '2026-03-12T09:58:30.044Z',
        finished_at: '2026-03-12T10:02:51.921Z',
        error: 'Provider deepl answered HTTP 456 Quota exceeded after 5 attempts.',
      },
      rows: { total: 96, outcomes: { translated: 40, memory: 3, failed: 53 } },
      words: { reserved: 610, spent: 262, refunded: 348 },
      refused: [],
      refused_count: 0,
      files: [{ path: 'config/locales/en.yml', format: 'yaml' }],
      pull: { path: 'config/locales/en.yml', url: '/v1/pull?path=config%2Flocales%2Fen.yml' },
    },
  },
  'key.created': {
    id: 'evt_06ee2v1hw0bwghvj0qb2x6ts8x',
    type: 'key.created',
    created_at: '2026-03-12T09:41:07.530Z',
    project,
    data: {
      path: 'locales/en.json',
      batch_id: batchId,
      count: 2,
      keys: [
        { key: 'checkout.coupon.apply', source: 'Apply coupon' },
        { key: 'checkout.coupon.invalid', source: 'The code {code} is not valid.' },
      ],
      truncated: false,
    },
  },
  'key.updated': {
    id: 'evt_06ee2v1hw0bwghvj0qb2x6ts8y',
    type: 'key.updated',
    created_at: '2026-03-12T09:41:07.531Z',
    project,
    data: {
      path: 'locales/en.json',
      batch_id: batchId,
      count: 1,
      keys: [{ key: 'cart.items', source: '{count, plural, one {# item} other {# items}} in your cart' }],
      truncated: false,
    },
  },
  'key.deleted': {
    id: 'evt_06ee2v1hw0bwghvj0qb2x6ts8z',
    type: 'key.deleted',
    created_at: '2026-03-12T09:41:07.532Z',
    project,
    data: { path: 'locales/en.json', batch_id: batchId, count: 1, keys: [{ key: 'checkout.legacy_banner', source: null }], truncated: false },
  },
  'translation.updated': {
    id: 'evt_06ee2v74acx5t9npy7rjc5vk93',
    type: 'translation.updated',
    created_at: '2026-03-12T09:43:18.210Z',
    project,
    data: {
      origin: 'batch',
      batch_id: batchId,
      count: 369,
      locales: ['de', 'fr', 'ja'],
      translations: [
        { key: 'checkout.coupon.apply', path: 'locales/en.json', locale: 'de', state: 'accepted' },
        { key: 'checkout.coupon.apply', path: 'locales/en.json', locale: 'fr', state: 'accepted' },
        { key: 'onboarding.welcome_long', path: 'locales/en.json', locale: 'de', state: 'flagged' },
      ],
      truncated: true,
    },
  },
  'translation.reviewed': {
    id: 'evt_06ee2vdr5k1q8tzb3ye6wmh0c4',
    type: 'translation.reviewed',
    created_at: '2026-03-12T11:15:42.377Z',
    project,
    data: {
      key: 'cart.items',
      path: 'locales/en.json',
      locale: 'de',
      decision: 'approve',
      state: 'approved',
      text: '{count, plural, one {# Artikel} other {# Artikel}} im Warenkorb',
      plurals: null,
    },
  },
  'language.added': {
    id: 'evt_06ee2tq0g7n2c5x9ka4vr8dj1m',
    type: 'language.added',
    created_at: '2026-03-11T16:20:05.118Z',
    project,
    data: { tag: 'pt-BR', name: 'Brazilian Portuguese' },
  },
  'language.removed': {
    id: 'evt_06ee2tq3b2wj7y0fh5cs9pe4nt',
    type: 'language.removed',
    created_at: '2026-03-11T16:24:49.602Z',
    project,
    data: { tag: 'it', name: 'Italian' },
  },
  'glossary.updated': {
    id: 'evt_06ee2tx8f4hq1m6dz0bk3rv7ws',
    type: 'glossary.updated',
    created_at: '2026-03-11T17:02:13.885Z',
    project,
    data: {
      action: 'created',
      term: {
        id: 'gls_06ee2tx8f4hq1m6dz0bk3rv7wr',
        term: 'Pro plan',
        translations: { de: 'Pro-Tarif', fr: 'Offre Pro' },
        case_sensitive: false,
        forbidden: false,
        notes: 'Marketing name; keep "Pro" untranslated.',
      },
      translations_marked_stale: 14,
    },
  },
  'qa.completed': {
    id: 'evt_06ee2vf2n9c4w7tx1ra5kd8ym3',
    type: 'qa.completed',
    created_at: '2026-03-12T11:40:09.456Z',
    project,
    data: {
      qa_run_id: 'qa_06ee2vf2n9c4w7tx1ra5kd8ym2',
      checked: 1104,
      passed: 1097,
      flagged: 5,
      refused: 2,
      scope: { locales: ['de', 'fr', 'ja'], path: 'locales/en.json' },
    },
  },
  'source_drift.repaired': {
    id: 'evt_06ee2v74acx5t9npy7rjc5vk94',
    type: 'source_drift.repaired',
    created_at: '2026-03-12T09:43:18.215Z',
    project,
    data: {
      origin: 'batch',
      batch_id: batchId,
      count: 3,
      locales: ['de', 'ja'],
      keys: [
        { key: 'cart.items', path: 'locales/en.json', locale: 'de' },
        { key: 'cart.items', path: 'locales/en.json', locale: 'ja' },
        { key: 'nav.pricing', path: 'locales/en.json', locale: 'de' },
      ],
      truncated: false,
    },
  },
};

export interface EventCatalogItem {
  type: EventType;
  description: string;
  /** JSON Schema draft 2020-12 of the whole delivered body. */
  schema: Record<string, unknown>;
  example: Envelope<EventType>;
}

/** Every kind in EVENT_TYPES order, so the catalog reads the same on every call. */
export function eventCatalog(): { items: EventCatalogItem[] } {
  return {
    items: EVENT_TYPES.map((type) => ({
      type,
      description: EVENT_DESCRIPTIONS[type],
      schema: z.toJSONSchema(eventSchema(type), { target: 'draft-2020-12' }),
      example: EXAMPLES[type],
    })),
  };
}
