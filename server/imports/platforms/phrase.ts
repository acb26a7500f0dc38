/** Reads a Phrase Strings project through API v2 (project, locales, keys, translations, term bases) into import chunks. */
import { z } from 'zod';
import type { PluralForms, PluralCategory } from '../../../src/core/formats/codec.js';
import { PLURAL_CATEGORIES } from '../../../src/core/formats/codec.js';
import { ImportSourceError, type ApiSource, type ImportChunk, type ImportedKey, type ImportedTerm, type ImportedTranslation, type PlatformReader, type ReaderContext } from '../import-model.js';
import { readPhraseArchive } from './phrase-archive.js';

const DEFAULT_BASE = 'https://api.phrase.com/v2';
// Phrase caps per_page at 100 and allows 4 parallel requests per user (developers.phrase.com, "Pagination", "Rate Limiting").
const PER_PAGE = 100;
const PARALLEL = 4;
const TOKEN_PAGE = 'https://app.phrase.com/settings/oauth_access_tokens';

interface PhraseLocale { id: string; name: string; code?: string | null; default?: boolean }
interface PhraseKey { id: string; name: string; description?: string | null; plural?: boolean; tags?: string[] | null; max_characters_allowed?: number | null }
interface PhraseTranslation {
  id: string;
  content: string | null;
  plural_suffix?: string | null;
  state?: string | null;
  key: { id: string; name: string; plural?: boolean };
}
interface PhraseTerm { id: string; term: string; description?: string | null; translatable?: boolean; case_sensitive?: boolean; translations?: { locale_code: string; content: string }[] }
interface PhraseGlossary { id: string; name: string; projects?: { id: string }[] }

/** Where a resumed run starts: the term bases, then keys from `page`, then target locale `locale` from `page`. */
type Checkpoint = { stage: 'keys'; page: number } | { stage: 'translations'; locale: number; page: number } | { stage: 'glossary' } | { stage: 'done' };

function parseCheckpoint(value: unknown): Checkpoint {
  const c = value as Partial<Checkpoint> | undefined;
  if (c?.stage === 'translations' && typeof c.locale === 'number' && typeof c.page === 'number') return { stage: 'translations', locale: c.locale, page: c.page };
  if (c?.stage === 'keys' && typeof c.page === 'number') return { stage: 'keys', page: c.page };
  if (c?.stage === 'glossary' || c?.stage === 'done') return { stage: c.stage };
  // The term bases first: every translation is then gated against the project's whole glossary.
  return { stage: 'glossary' };
}

/** The `rel="next"` address of an RFC 5988 Link header, which Phrase sends on every list page but the last. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * `total_count` of the JSON Pagination header Phrase sends with a list page (phrase/openapi headers.yaml:
 * `{"total_count":…,"total_pages_count":…,"current_page":…,…}`); undefined where it is missing or not that shape.
 */
export function totalCount(header: string | null): number | undefined {
  if (!header) return undefined;
  try {
    return paginationHeader.safeParse(JSON.parse(header)).data?.total_count;
  } catch {
    return undefined;
  }
}
const paginationHeader = z.object({ total_count: z.number().int().min(0) });

const isCategory = (s: string): s is PluralCategory => (PLURAL_CATEGORIES as readonly string[]).includes(s);
const localeTag = (l: { name: string; code?: string | null }) => (l.code && l.code.trim() !== '' ? l.code : l.name);

function createClient(source: ApiSource, context: ReaderContext) {
  const base = (source.baseUrl ?? DEFAULT_BASE).replace(/\/+$/, '');
  const project = encodeURIComponent(source.project);
  // Phrase asks every client to name itself in User-Agent (developers.phrase.com, "Identification via User-Agent").
  const headers = { authorization: `token ${source.token}`, 'user-agent': 'Parlance importer' };

  async function get(url: string, what: string): Promise<Response> {
    const response = await context.http.request(url, { headers });
    if (response.ok) return response;
    const text = await response.text();
    let message = text.slice(0, 300);
    try {
      const body = JSON.parse(text) as { message?: string; errors?: { field?: string; message?: string }[] };
      if (body.message) message = body.message + (body.errors?.length ? ` (${body.errors.map((e) => [e.field, e.message].filter(Boolean).join(' ')).join('; ')})` : '');
    } catch {
      // Not JSON (a proxy's page): the raw text says more than nothing.
    }
    const host = new URL(base).host;
    if (response.status === 401) {
      throw new ImportSourceError(
        `Phrase (${host}) refused the API token for project ${source.project}: HTTP 401 "${message}". Create an access token with the read scope under Profile settings → Access tokens (${TOKEN_PAGE}; US datacenter accounts use https://app.us.app.phrase.com/settings/oauth_access_tokens and the API address https://api.us.app.phrase.com/v2).`,
      );
    }
    if (response.status === 403) throw new ImportSourceError(`Phrase (${host}) does not let this token read ${what} of project ${source.project}: HTTP 403 "${message}". Use a token with the read scope of a member of the project.`);
    if (response.status === 404) {
      throw new ImportSourceError(
        `Phrase (${host}) has no project ${source.project} that this token can see (${what}: HTTP 404 "${message}"). The project id is under Project settings → API in Phrase Strings; a US datacenter project needs the API address https://api.us.app.phrase.com/v2.`,
      );
    }
    throw new Error(`Phrase (${host}) answered HTTP ${response.status} reading ${what} of project ${source.project}: ${message}`);
  }

  /** One list page: its items, the next page's address from the Link header and the list's size from the Pagination header. */
  async function page<T>(url: string, what: string): Promise<{ items: T[]; next: string | undefined; total: number | undefined }> {
    const response = await get(url, what);
    return { items: (await response.json()) as T[], next: nextLink(response.headers.get('link')), total: totalCount(response.headers.get('pagination')) };
  }

  async function all<T>(url: string, what: string): Promise<T[]> {
    const out: T[] = [];
    for (let next: string | undefined = url; next; ) {
      const p: { items: T[]; next: string | undefined } = await page<T>(next, what);
      out.push(...p.items);
      next = p.next;
    }
    return out;
  }

  const list = (path: string, pageNo: number, extra = '') => `${base}${path}?page=${pageNo}&per_page=${PER_PAGE}${extra}`;
  return { base, project, get, page, all, list };
}

/** Folds Phrase's one-record-per-plural-form translations into one row per key, in the order they came. */
function groupTranslations(records: PhraseTranslation[]): Map<string, { key: PhraseTranslation['key']; ids: string[]; text?: string; plurals?: PluralForms; states: string[] }> {
  const byKey = new Map<string, { key: PhraseTranslation['key']; ids: string[]; text?: string; plurals?: PluralForms; states: string[] }>();
  for (const t of records) {
    let group = byKey.get(t.key.id);
    if (!group) byKey.set(t.key.id, (group = { key: t.key, ids: [], states: [] }));
    group.ids.push(t.id);
    group.states.push(t.state ?? '');
    const suffix = t.plural_suffix ?? '';
    if (t.key.plural && isCategory(suffix)) (group.plurals ??= {})[suffix] = t.content ?? '';
    else group.text = t.content ?? '';
  }
  return byKey;
}

async function readApi(source: ApiSource, context: ReaderContext): Promise<void> {
  const client = createClient(source, context);
  const checkpoint = parseCheckpoint(context.checkpoint);
  if (checkpoint.stage === 'done') return;

  const project = (await (await client.get(`${client.base}/projects/${client.project}`, 'the project')).json()) as { id: string; name: string; account?: { id: string } };
  const locales = await client.all<PhraseLocale>(client.list(`/projects/${client.project}/locales`, 1), 'the locales');
  const sourceLocale = locales.find((l) => l.default) ?? locales[0];
  if (!sourceLocale) throw new ImportSourceError(`Phrase project ${source.project} ("${project.name}") has no locales: there is nothing to import.`);
  const targets = locales.filter((l) => l !== sourceLocale);
  const localesChunk = { kind: 'locales' as const, source: localeTag(sourceLocale), targets: targets.map(localeTag) };

  if (checkpoint.stage === 'glossary') {
    // Term bases belong to the account; the ones linked to this project are its glossary.
    const terms: ImportedTerm[] = [];
    if (project.account?.id) {
      const account = encodeURIComponent(project.account.id);
      const glossaries = await client.all<PhraseGlossary>(client.list(`/accounts/${account}/glossaries`, 1), 'the term bases');
      for (const glossary of glossaries.filter((g) => g.projects?.some((p) => p.id === project.id))) {
        const list = await client.all<PhraseTerm>(client.list(`/accounts/${account}/glossaries/${glossary.id}/terms`, 1), `term base ${glossary.id}`);
        for (const t of list) {
          terms.push({
            term: t.term,
            translations: Object.fromEntries((t.translations ?? []).filter((tr) => tr.content !== '').map((tr) => [tr.locale_code, tr.content])),
            // Phrase Strings term bases have no forbidden terms; a term marked not translatable has no translations instead.
            forbidden: false,
            ...(t.case_sensitive !== undefined ? { caseSensitive: t.case_sensitive } : {}),
            ...(t.description ? { notes: t.description } : {}),
          });
        }
      }
    }
    const warnings: ImportChunk[] = [
      {
        kind: 'warning',
        message: `Phrase's API gives no translation memory, so project ${source.project}'s memory is not part of this import. Export it as TMX from Phrase's translation memory and import that file (alone or in the pull archive) to bring it across.`,
      },
    ];
    if (!project.account?.id) warnings.push({ kind: 'warning', message: `Phrase did not say which account project ${source.project} belongs to; its term bases were not read.` });
    await context.emit([localesChunk, { kind: 'glossary', terms }, ...warnings], { stage: 'keys', page: 1 });
  }

  if (checkpoint.stage === 'glossary' || checkpoint.stage === 'keys') {
    // A key's source text is its translation in the default locale; read them all first so each keys page is complete.
    context.progress(`reading the ${localeTag(sourceLocale)} source texts`);
    const sources = groupTranslations(
      await client.all<PhraseTranslation>(client.list(`/projects/${client.project}/locales/${sourceLocale.id}/translations`, 1, '&sort=key_name&order=asc'), 'the source translations'),
    );
    let pageNo = checkpoint.stage === 'keys' ? checkpoint.page : 1;
    let first = true;
    // Counted in this run: after a resume the bar shows the keys read since, short of the total by those read before.
    let read = 0;
    for (let url: string | undefined = client.list(`/projects/${client.project}/keys`, pageNo); url; pageNo++) {
      const p: { items: PhraseKey[]; next: string | undefined; total: number | undefined } = await client.page<PhraseKey>(url, 'the keys');
      // The key list leaves out max_characters_allowed; only a key's own record has it.
      const details = await mapParallel(p.items, PARALLEL, async (k) => (await (await client.get(`${client.base}/projects/${client.project}/keys/${k.id}`, `key ${k.id}`)).json()) as PhraseKey);
      const keys = details.map((k): ImportedKey => {
        const text = sources.get(k.id);
        const plurals = k.plural ? text?.plurals : undefined;
        return {
          ref: `Phrase key ${k.id}`,
          path: '',
          key: k.name,
          source: plurals ? (plurals.other ?? '') : (text?.text ?? ''),
          ...(plurals ? { plurals } : {}),
          ...(k.description ? { notes: k.description } : {}),
          ...(k.max_characters_allowed ? { maxLength: k.max_characters_allowed } : {}),
          ...(k.tags?.length ? { tags: k.tags } : {}),
        };
      });
      url = p.next;
      const next: Checkpoint = url ? { stage: 'keys', page: pageNo + 1 } : { stage: 'translations', locale: 0, page: 1 };
      await context.emit([...(first ? [localesChunk] : []), { kind: 'keys', keys }], next);
      first = false;
      read += p.items.length;
      context.progress(`read keys page ${pageNo}`, p.total === undefined ? undefined : Math.min(read, p.total), p.total);
    }
  }

  let resume = parseCheckpoint(context.checkpoint);
  if (resume.stage === 'glossary' || resume.stage === 'keys') resume = { stage: 'translations', locale: 0, page: 1 };
  if (resume.stage === 'translations') {
    for (let index = resume.locale; index < targets.length; index++) {
      const locale = targets[index]!;
      const tag = localeTag(locale);
      let pageNo = index === resume.locale ? resume.page : 1;
      // A plural key's forms are separate records; sorted by key name they are adjacent but may straddle two pages.
      let carry: PhraseTranslation[] = [];
      for (let url: string | undefined = client.list(`/projects/${client.project}/locales/${locale.id}/translations`, pageNo, '&sort=key_name&order=asc'); url; pageNo++) {
        const p: { items: PhraseTranslation[]; next: string | undefined } = await client.page<PhraseTranslation>(url, `the ${tag} translations`);
        url = p.next;
        const records = [...carry, ...p.items];
        carry = [];
        const last = records.at(-1);
        if (url && last?.key.plural) carry = records.filter((r) => r.key.id === last.key.id);
        const complete = carry.length ? records.filter((r) => r.key.id !== last!.key.id) : records;
        const rows: ImportedTranslation[] = [];
        for (const group of groupTranslations(complete).values()) {
          rows.push({
            ref: `Phrase translation ${group.ids.join(',')}`,
            path: '',
            key: group.key.name,
            locale: tag,
            text: group.plurals ? (group.plurals.other ?? '') : (group.text ?? ''),
            ...(group.plurals ? { plurals: group.plurals } : {}),
            // Only the review workflow's "reviewed" counts: "translated" and "unverified" were never signed off.
            reviewed: group.states.every((s) => s === 'reviewed'),
          });
        }
        // With forms held back, the run must restart at this page to see them again.
        const next: Checkpoint = url ? { stage: 'translations', locale: index, page: carry.length ? pageNo : pageNo + 1 } : index + 1 < targets.length ? { stage: 'translations', locale: index + 1, page: 1 } : { stage: 'done' };
        await context.emit([localesChunk, { kind: 'translations', rows }], next);
        context.progress(`read ${tag} translations page ${pageNo}`, index + 1, targets.length);
      }
    }
  }

}

async function mapParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

export const phraseReader: PlatformReader = {
  platform: 'phrase',
  readApi,
  readArchive: readPhraseArchive,
};
