/**
 * Translation memory, shared by an organisation's projects: accepted translations by (source locale, target locale,
 * exact source). An exact match is reused without a provider call and without charging words; fuzzy matches go
 * into the careful pass's context.
 */
import { hash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { unnestRows } from '../../db/bulk.js';
import type { Db } from '../../db/database.js';
import type { MemoryOrigin, PassName } from '../../db/schema.js';
import type { PluralForms } from '../../../src/core/formats/codec.js';
import { orderedForms } from '../../../src/core/plurals.js';
import { bestMatches, searchWords } from '../../../src/core/similarity.js';
import { formalityFor, type MemoryHint, type StyleGuide } from '../../providers/provider.js';

type Executor = Pick<Db, 'selectFrom' | 'insertInto'>;

/**
 * Identifies a source exactly: its text, or its plural forms in CLDR order, and its disambiguating context (gettext
 * msgctxt and the like), so "Open" the verb and "Open" the state never share a translation.
 */
export function sourceSha(source: string, plurals: PluralForms | null, context: string | null = null): string {
  const text = plurals ? JSON.stringify(orderedForms(plurals)) : source;
  return hash('sha256', context ? JSON.stringify([text, context]) : text, 'hex');
}

/**
 * The part of a project's style guide that one locale's machine translations depend on, as a short key; '' when the
 * guide sets nothing for it. Machine translations are remembered under `styledSha(sha, key)`, so a project whose guide
 * differs (another tone, Sie instead of du) never reuses them, and a change of the guide re-translates a key when it
 * is asked to (PATCH changes no translation by itself). A person's translations (human, TMX) are remembered under the
 * plain sha and serve every guide.
 */
export function styleKey(style: StyleGuide | undefined, locale: string): string {
  if (!style) return '';
  const formality = formalityFor(style, locale) ?? null;
  const keep = [...(style.keep ?? [])].sort();
  if (!style.product && !style.audience && !style.tone && !formality && keep.length === 0) return '';
  return hash('sha256', JSON.stringify([style.product ?? null, style.audience ?? null, style.tone ?? null, formality, keep]), 'hex').slice(0, 16);
}

/** Where a machine translation of the source `sha` made under the style `key` is remembered (see `styleKey`). */
export function styledSha(sha: string, key: string): string {
  return key === '' ? sha : hash('sha256', `${sha}:${key}`, 'hex');
}

/** `styledSha` in SQL, for a query that finds the memory of many sources at once; `sha` and `key` are text expressions. */
export function styledShaSql(sha: RawBuilder<unknown>, key: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(case when ${key} = '' then ${sha} else encode(sha256(convert_to(${sha} || ':' || ${key}, 'UTF8')), 'hex') end)`;
}

/** Origins that are a person's work: remembered under the plain sha, whatever the style guide. */
export const PERSON_ORIGINS: readonly MemoryOrigin[] = ['human', 'tmx'];

/**
 * The match for a source from `exactMatchesAcross` asked for both its plain and its styled sha: a person's
 * translation first, else a machine translation made under the same style guide.
 */
export function memoryMatch(matches: ReadonlyMap<string, ExactMatch>, locale: string, sha: string, styled: string): ExactMatch | undefined {
  const plain = matches.get(matchKey(locale, sha));
  if (plain && (styled === sha || PERSON_ORIGINS.includes(plain.origin))) return plain;
  return styled === sha ? undefined : matches.get(matchKey(locale, styled));
}

/**
 * Whether a memory match may stand in for a provider call: its origin suits the row's pass, and it is not the
 * translation the key already has (a key queued again because its notes or length changed wants a fresh one).
 */
export function usableMatch(match: ExactMatch | undefined, pass: PassName, current: string | undefined): match is ExactMatch {
  return match !== undefined && reusableOrigins(pass).includes(match.origin) && match.text !== current;
}

export interface MemoryWrite {
  organisationId: string;
  sourceLocale: string;
  locale: string;
  source: string;
  sourcePlurals: PluralForms | null;
  context?: string | null;
  text: string;
  plurals: PluralForms | null;
  origin: MemoryOrigin;
  /** `sourceSha(source, sourcePlurals, context)`, when the caller has it already. */
  sha?: string;
}

/** Records accepted translations; a newer translation of the same source replaces the older one. */
export async function rememberTranslations(db: Executor, writes: readonly MemoryWrite[]): Promise<void> {
  // One statement must not update the same row twice: the last write of a source wins.
  const unique = new Map<string, MemoryWrite & { sha: string }>();
  for (const w of writes) {
    const sha = w.sha ?? sourceSha(w.source, w.sourcePlurals, w.context ?? null);
    unique.set(`${w.organisationId}\u0000${w.sourceLocale}\u0000${w.locale}\u0000${sha}`, { ...w, sha });
  }
  const values = [...unique.values()].map((w) => ({
    organisation_id: w.organisationId,
    source_locale: w.sourceLocale,
    locale: w.locale,
    source_sha: w.sha,
    source: w.source,
    source_plurals: w.sourcePlurals ? JSON.stringify(w.sourcePlurals) : null,
    text: w.text,
    plurals: w.plurals ? JSON.stringify(w.plurals) : null,
    origin: w.origin,
  }));
  if (values.length === 0) return;
  await db
    .insertInto('memory_entries')
    .columns(['organisation_id', 'source_locale', 'locale', 'source_sha', 'source', 'source_plurals', 'text', 'plurals', 'origin'])
    .expression(
      unnestRows(values, {
        organisation_id: ['text', (v) => v.organisation_id],
        source_locale: ['text', (v) => v.source_locale],
        locale: ['text', (v) => v.locale],
        source_sha: ['text', (v) => v.source_sha],
        source: ['text', (v) => v.source],
        source_plurals: ['jsonb', (v) => v.source_plurals],
        text: ['text', (v) => v.text],
        plurals: ['jsonb', (v) => v.plurals],
        origin: ['text', (v) => v.origin],
      }),
    )
    .onConflict((oc) =>
      oc.columns(['organisation_id', 'source_locale', 'locale', 'source_sha']).doUpdateSet((eb) => ({
        text: eb.ref('excluded.text'),
        plurals: eb.ref('excluded.plurals'),
        origin: eb.ref('excluded.origin'),
        updated_at: sql`now()`,
      })),
    )
    .execute();
}

export interface ExactMatch {
  text: string;
  plurals: PluralForms | null;
  origin: MemoryOrigin;
}

/** Origins a row of this pass may reuse: a careful key never takes a fast machine translation from memory. */
export function reusableOrigins(pass: PassName): MemoryOrigin[] {
  return pass === 'careful' ? ['careful', 'human', 'tmx'] : ['fast', 'careful', 'human', 'tmx'];
}

/** The key of a match in the map `exactMatchesAcross` returns. */
export const matchKey = (locale: string, sha: string): string => `${locale}\u0000${sha}`;

/**
 * Exact matches by `matchKey(locale, sha)`, for requests in any target locales, in one query: one search of the
 * primary key per distinct (locale, sha), whatever the planner believes of the table's size. Both simpler forms were
 * planned as a scan of the organisation's whole memory while a batch filled it, its statistics stale: a join with the
 * requests as a table became a hash join over it, and the locales and shas as two arrays became a search of the
 * organisation's prefix of the key with the arrays as a filter, 216,000 entries read for each 4,000-row chunk of a
 * 200,000-key batch, most of that batch's time. A lateral subquery with a limit is never flattened into a join, so
 * each request is its own search of the key.
 */
export async function exactMatchesAcross(db: Executor, organisationId: string, sourceLocale: string, requests: readonly { locale: string; sha: string }[]): Promise<Map<string, ExactMatch>> {
  const found = new Map<string, ExactMatch>();
  if (requests.length === 0) return found;
  const pairs = new Map<string, { locale: string; sha: string }>();
  for (const r of requests) pairs.set(matchKey(r.locale, r.sha), r);
  const wanted = unnestRows([...pairs.values()], { locale: ['text', (r) => r.locale], sha: ['text', (r) => r.sha] }, 'w');
  const rows = await db
    .selectFrom(wanted.as('w'))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('memory_entries as e')
          .select(['e.text', 'e.plurals', 'e.origin'])
          .where('e.organisation_id', '=', organisationId)
          .where('e.source_locale', '=', sourceLocale)
          .whereRef('e.locale', '=', 'w.locale')
          .whereRef('e.source_sha', '=', 'w.sha')
          .limit(1)
          .as('m'),
      (join) => join.onTrue(),
    )
    .select(['w.locale', 'w.sha', 'm.text', 'm.plurals', 'm.origin'])
    .execute();
  for (const r of rows) found.set(matchKey(r.locale!, r.sha!), { text: r.text, plurals: r.plurals, origin: r.origin });
  return found;
}

/** Up to three fuzzy matches (≥ 70 % similar) for a plain source, from entries sharing one of its longest words. */
export async function fuzzyMatches(db: Executor, organisationId: string, sourceLocale: string, locale: string, source: string): Promise<MemoryHint[]> {
  const words = searchWords(source).slice(0, 3);
  if (words.length === 0) return [];
  const candidates = await db
    .selectFrom('memory_entries')
    .select(['source', 'text'])
    .where('organisation_id', '=', organisationId)
    .where('source_locale', '=', sourceLocale)
    .where('locale', '=', locale)
    .where('source_plurals', 'is', null)
    .where((eb) => eb.or(words.map((w) => eb(sql`lower(source)`, 'like', `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`))))
    .orderBy('updated_at', 'desc')
    .limit(200)
    .execute();
  return bestMatches(
    source,
    candidates.filter((c) => c.source !== source).map((c) => ({ source: c.source, translation: c.text })),
    { min: 0.7, limit: 3 },
  ).map((m) => ({ source: m.source, translation: m.translation, score: m.score }));
}
