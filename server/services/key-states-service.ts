/**
 * Where each key stands in each target locale (missing, held, flagged, human, machine): counted per locale for the
 * progress bars, and listed a page at a time, filtered and searched, for the console's grid of 100,000 keys.
 */
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, StoredFailure } from '../db/schema.js';
import type { PluralForms } from '../../src/core/formats/codec.js';
import { pluralCategories } from '../../src/core/plurals.js';

type PluralColumn = PluralForms | null;
import { ApiError } from '../errors.js';

export const KEY_STATES = ['missing', 'held', 'flagged', 'human', 'machine'] as const;
export type KeyState = (typeof KEY_STATES)[number];

/**
 * One state per key and locale, most urgent first: a current held candidate needs review even when an older
 * translation is still served; then flagged; then people's work (human, approved); then machine work (accepted).
 * A plural key's translation without a non-empty form for every CLDR category of the locale is still missing.
 */
const stateExpression = (locale: string) => sql<KeyState>`case
  when h.key_id is not null then 'held'
  when t.state is not null and k.source_plurals is not null and (
    select count(*) from jsonb_each_text(t.plurals) f where f.key in (${sql.join(pluralCategories(locale))}) and btrim(f.value) <> ''
  ) < ${pluralCategories(locale).length} then 'missing'
  when t.state = 'flagged' then 'flagged'
  when t.state in ('human', 'approved') then 'human'
  when t.state = 'accepted' then 'machine'
  else 'missing' end`;

function encodeCursor(keyId: string): string {
  return Buffer.from(keyId).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^key_[0-9a-z]+$/.test(id)) throw new ApiError(422, 'validation_failed', `cursor: '${cursor}' is not a cursor this endpoint returned.`);
  return id;
}

/** `%`, `_` and `\` match themselves in a search. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createKeyStatesService(deps: { db: Db }) {
  const { db } = deps;

  function joined(projectId: string, locale: string) {
    return db
      .selectFrom('keys as k')
      .leftJoin('translations as t', (join) => join.onRef('t.key_id', '=', 'k.id').on('t.locale', '=', locale))
      .leftJoin('held_translations as h', (join) => join.onRef('h.key_id', '=', 'k.id').on('h.locale', '=', locale).on('h.state', '=', 'held').onRef('h.source_hash', '=', 'k.source_hash'))
      .where('k.project_id', '=', projectId)
      .where('k.state', '=', 'active')
      .where('k.translatable', '=', true);
  }

  type Filters = { state?: KeyState | undefined; q?: string | undefined; path?: string | undefined };
  function filtered(projectId: string, locale: string, f: Filters) {
    let query = joined(projectId, locale);
    if (f.state) query = query.where(sql<SqlBool>`${stateExpression(locale)} = ${f.state}`);
    if (f.path !== undefined) query = query.where('k.path', '=', f.path);
    if (f.q) {
      const pattern = likePattern(f.q);
      query = query.where((eb: ExpressionBuilder<Database & { k: Database['keys']; t: Database['translations'] }, 'k' | 't'>) =>
        eb.or([sql<SqlBool>`k.key ilike ${pattern}`, sql<SqlBool>`k.source ilike ${pattern}`, sql<SqlBool>`t.text ilike ${pattern}`]),
      );
    }
    return query;
  }

  async function page(projectId: string, options: Filters & { locale: string; cursor?: string | undefined; limit: number }) {
    let query = filtered(projectId, options.locale, options)
      .select([
        'k.id',
        'k.key',
        'k.path',
        'k.line',
        'k.source',
        'k.source_plurals',
        'k.notes',
        'k.context',
        'k.max_length',
        'k.pass',
        'k.tags',
        't.text',
        't.plurals',
        't.state as translation_state',
        't.origin',
        't.failures',
        't.updated_at',
        'h.text as held_text',
        'h.plurals as held_plurals',
        'h.failures as held_failures',
        'h.created_at as held_created_at',
        stateExpression(options.locale).as('key_state'),
      ])
      .orderBy('k.id')
      .limit(options.limit + 1);
    if (options.cursor) query = query.where('k.id', '>', decodeCursor(options.cursor));
    const [rows, count] = await Promise.all([
      query.execute(),
      filtered(projectId, options.locale, options)
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    const items = rows.slice(0, options.limit).map((r) => ({
      key: r.key,
      path: r.path,
      line: r.line,
      source: r.source,
      source_plurals: r.source_plurals as PluralColumn,
      notes: r.notes,
      context: r.context,
      max_length: r.max_length,
      pass: r.pass,
      tags: r.tags ?? [],
      locale: options.locale,
      state: r.key_state,
      translation:
        r.translation_state !== null && r.text !== null
          ? { text: r.text, plurals: r.plurals as PluralColumn, state: r.translation_state, origin: r.origin ?? '', failures: (r.failures ?? []) as StoredFailure[], updated_at: new Date(r.updated_at!).toISOString() }
          : null,
      held:
        r.held_text !== null
          ? { text: r.held_text, plurals: r.held_plurals as PluralColumn, failures: (r.held_failures ?? []) as StoredFailure[], created_at: new Date(r.held_created_at!).toISOString() }
          : null,
    }));
    const last = rows.length > options.limit ? rows[options.limit - 1] : undefined;
    return { items, next_cursor: last ? encodeCursor(last.id) : null, total: Number(count.total) };
  }

  /** Per target locale: keys, and how many are translated (of them, by a machine and by a person), held, flagged and missing. */
  async function progress(projectId: string) {
    const locales = await db.selectFrom('project_languages').select('tag').where('project_id', '=', projectId).orderBy('tag').execute();
    const { keys } = await db
      .selectFrom('keys')
      .select((eb) => eb.fn.countAll<string>().as('keys'))
      .where('project_id', '=', projectId)
      .where('state', '=', 'active')
      .where('translatable', '=', true)
      .executeTakeFirstOrThrow();
    const out = [];
    for (const { tag } of locales) {
      const counts = await joined(projectId, tag)
        .select([stateExpression(tag).as('key_state'), (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy(sql`1`)
        .execute();
      const by = Object.fromEntries(counts.map((c) => [c.key_state, Number(c.n)])) as Partial<Record<KeyState, number>>;
      out.push({
        locale: tag,
        keys: Number(keys),
        translated: (by.human ?? 0) + (by.machine ?? 0),
        machine: by.machine ?? 0,
        human: by.human ?? 0,
        held: by.held ?? 0,
        flagged: by.flagged ?? 0,
        missing: by.missing ?? 0,
      });
    }
    return { keys: Number(keys), locales: out };
  }

  return { page, progress };
}

export type KeyStatesService = ReturnType<typeof createKeyStatesService>;
