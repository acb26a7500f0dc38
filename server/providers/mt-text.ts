/** Row text as the markup-reading MT engines (DeepL, LibreTranslate) get it and give it back: tokens as tags, `& < >` escaped, outer whitespace kept aside. */
import { isRecord, parseJson, type BodyReader } from './http.js';
import type { ProviderRow, RowResult } from './provider.js';

const PH_TOKEN = /<ph\s[^>]*>/g;
const LETTER = /\p{L}/u;

/** False for a source with no letters outside its tokens (empty, only placeholders, numbers or punctuation): the source is its own translation. */
export function hasTranslatableText(maskedText: string): boolean {
  return LETTER.test(maskedText.replace(PH_TOKEN, ''));
}

const TOKEN_SPLIT = /(<ph id="\d+"\/>)/;
const MARKUP_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * The masked text as markup (XML or HTML): literal `&`, `<`, `>` escaped so the engine's parser reads them as text,
 * `<ph/>` tokens kept as the tags the engine is told to leave alone.
 */
export function toMarkup(masked: string): string {
  return masked
    .split(TOKEN_SPLIT)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[&<>]/g, (ch) => MARKUP_ESCAPES[ch] as string)))
    .join('');
}

/**
 * Decodes the character references and predefined entities of an XML answer. Entities of the source are tokens
 * already, so every entity in the answer is the engine's own escaping and can be decoded.
 */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g, (_m, dec?: string, hex?: string, name?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (XML_ENTITIES[name as string] as string),
  );
}

/** Leading and trailing whitespace of a text: MT engines drop it, UI strings depend on it, so it is kept aside and put back. */
export function outerWhitespace(text: string): { lead: string; core: string; trail: string } {
  const lead = /^\s*/u.exec(text)?.[0] ?? '';
  const trail = /\s*$/u.exec(text.slice(lead.length))?.[0] ?? '';
  return { lead, core: text.slice(lead.length, text.length - trail.length), trail };
}

/** A row on its way to an MT engine: its text without the outer whitespace, as markup, and that whitespace. */
export interface MarkupJob {
  row: ProviderRow;
  lead: string;
  markup: string;
  trail: string;
}

/** How one MT engine takes its jobs: grouped into requests, each request sent, each answer decoded. */
export interface MarkupEngine<B extends { jobs: readonly MarkupJob[] }> {
  /** The requests for the jobs, each job in exactly one, in the order they are to be sent. */
  batchesOf: (jobs: readonly MarkupJob[]) => B[];
  /** One request; resolves to one answer per job of the batch, in its order. */
  send: (batch: B) => Promise<string[]>;
  /** Turns an answer back into plain text; default: as it is (an engine that unescapes its answer itself). */
  decode?: (answer: string) => string;
}

/**
 * Reads an engine's answers: the list under `field` of a JSON body, `textOf` each item, exactly one text per text
 * sent; anything else is a malformed body.
 */
export function answersReader(field: string, count: number, textOf: (item: unknown) => string | undefined): BodyReader<string[]> {
  return {
    expected: `${field} for ${count} texts`,
    read(body) {
      const parsed = parseJson(body);
      const list = isRecord(parsed) ? parsed[field] : undefined;
      if (!Array.isArray(list) || list.length !== count) return undefined;
      const texts = list.map(textOf);
      return texts.every((t): t is string => t !== undefined) ? texts : undefined;
    },
  };
}

/**
 * Translates the rows through an MT engine. A row with nothing to translate comes back as its source without a
 * request, so no characters are billed. The others go as {@link MarkupJob}s, one request at a time: a rate-limited
 * key gains nothing from parallel ones, and the order stays predictable. Each answer is trimmed, decoded and put
 * back between its row's outer whitespace.
 */
export async function translateAsMarkup<B extends { jobs: readonly MarkupJob[] }>(
  rows: readonly ProviderRow[],
  engine: MarkupEngine<B>,
): Promise<RowResult[]> {
  const decode = engine.decode ?? ((answer: string) => answer);
  const results = new Map<ProviderRow, RowResult>();
  const jobs: MarkupJob[] = [];
  for (const row of rows) {
    const { lead, core, trail } = outerWhitespace(row.text);
    if (hasTranslatableText(core)) jobs.push({ row, lead, markup: toMarkup(core), trail });
    else results.set(row, { id: row.id, ok: true, text: row.text });
  }
  for (const batch of engine.batchesOf(jobs)) {
    const answers = await engine.send(batch);
    batch.jobs.forEach((job, i) => {
      results.set(job.row, { id: job.row.id, ok: true, text: job.lead + decode((answers[i] as string).trim()) + job.trail });
    });
  }
  return rows.map((row) => results.get(row) as RowResult);
}
