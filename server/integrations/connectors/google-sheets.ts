/**
 * Google Sheets as a two-way content connector, through the Sheets API v4 (`https://sheets.googleapis.com/v4`): one tab
 * of a spreadsheet whose header row names a key column, a source column and one column per locale, the most common
 * hand-made localization file. Each row with a key and a source text is one string (key: the key cell); the locale
 * columns' cells are what the remote holds in each locale.
 *
 * The tab is read with one `GET …/values/{range}?valueRenderOption=FORMULA` of the header row and at most `max_rows`
 * rows under it (columns A to ZZ). FORMULA shows a formula as its text (`=GOOGLETRANSLATE(B2,"en","de")`): such a cell in
 * a target column is a person's construction, never imported as a translation and never overwritten.
 *
 * Translations are written with `POST …/values:batchUpdate`, `valueInputOption: RAW` (so a translation beginning with
 * `=` or `+` stays text), one single-cell range per translation: only target cells of rows the listing read, never
 * another column or row, never an inserted or reordered row (a new key is a row a person adds). Just before writing,
 * one `values:batchGet` reads the header row, the key column and the target columns again: a header row that changed
 * stops the write with nothing written; a row whose key moved, or a cell that changed since the listing, is left alone
 * (the next sync imports a person's edit as a human translation).
 *
 * No webhooks: Sheets itself has none. Drive's push channels (`files.watch`) need a Drive scope, expire within a day
 * and carry only the token given at the watch call (`X-Goog-Channel-Token`), no signature of the notification; Apps
 * Script triggers are code in the spreadsheet. Syncs run on the connection's schedule and on demand.
 *
 * References: developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values/get (ValueRange `{ range,
 * majorDimension, values }`, trailing empty rows and columns left out), …/batchGet (`ranges` repeated, `valueRanges`),
 * …/batchUpdate (`{ valueInputOption, data: [ValueRange] }`, `totalUpdatedCells`), …/ValueRenderOption (FORMULA),
 * …/ValueInputOption (RAW: "The values the user has entered will not be parsed and will be stored as-is"),
 * developers.google.com/sheets/api/guides/concepts (A1 notation, quoted sheet names), Google's error envelope
 * `{ error: { code, message, status } }` ("Unable to parse range: …" INVALID_ARGUMENT for an unknown tab, "Requested
 * entity was not found." NOT_FOUND, PERMISSION_DENIED for a spreadsheet not shared, and for a write into a protected
 * range "You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if
 * you need to edit." as quoted in theoephraim/node-google-spreadsheet#20), the 50,000 characters of a cell
 * ("Your input contains more than the maximum of 50000 characters in a single cell."), and
 * developers.google.com/workspace/drive/api/guides/push (Drive's channels).
 */
import { z } from '@hono/zod-openapi';
import type { Connector, ConnectorContext, Listing, RemoteString, StringWrite, WriteBack, WriteResult } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson, vendorMessage, type FailureWording } from '../connector-http.js';
import { googleAuthorization, googleSecrets, type GoogleSecrets } from '../google-auth.js';
import { sameLocale } from '../remote-locales.js';

export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** The columns read: A to ZZ. */
const LAST_COLUMN = 702;
/** The most rows under the header one sync reads by default; the `max_rows` setting changes it. */
const MAX_ROWS = 10_000;
/** Google Sheets' limit for one cell. */
const CELL_MAX_CHARS = 50_000;
/** Single-cell ranges in one batchUpdate: well within Google's recommended 2 MB request. */
const WRITE_BATCH = 500;
/** The most bytes of one answer read. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

const HEADER = z.string().trim().min(1);

const SheetsSettings = z
  .object({
    api_url: z.string().url().default('https://sheets.googleapis.com').openapi({ description: 'The Sheets API. Default `https://sheets.googleapis.com`.' }),
    spreadsheet_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{20,100}$/, "Expected a spreadsheet id such as '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms' (the part of the spreadsheet's URL after /d/) in `spreadsheet_id`.")
      .openapi({ description: "The spreadsheet's id: the part of its URL between `/spreadsheets/d/` and `/edit`." }),
    sheet: HEADER.openapi({ description: "The tab's title as shown on its tab (`Strings`)." }),
    header_row: z.number().int().min(1).max(1000).default(1).openapi({ description: 'The row number of the header row; the rows under it are the strings. Default 1.' }),
    key_column: HEADER.default('key').openapi({ description: "The header of the column whose cells are the keys (unique, stable). Default `key`." }),
    source_column: HEADER.optional().openapi({ description: "The header of the source column. Default: the project's source locale tag (`en`)." }),
    notes_column: HEADER.optional().openapi({ description: "The header of a column whose cells are notes for translators. Default: none." }),
    context_column: HEADER.optional().openapi({ description: 'The header of a column whose cells are context (where the text appears). Default: none.' }),
    max_length_column: HEADER.optional().openapi({ description: "The header of a column holding each string's maximum length in characters. Default: none (Google's 50,000 per cell)." }),
    locales: z
      .record(z.string().min(1), HEADER)
      .default({})
      .openapi({ description: 'Project locale → column header, for headers that are not the project\'s tags (`{"de": "German"}`). Other target columns are found by their tag (`de`, `pt-BR`, `pt_BR`).' }),
    add_missing_columns: z
      .boolean()
      .default(false)
      .openapi({ description: 'When a target locale has no column: true adds its header cell in the first column after every cell the sync read (empty in the header row and in every row under it) and writes there; false (default) writes nothing for it and says so in the sync log.' }),
    max_rows: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(MAX_ROWS)
      .openapi({ description: `The most rows under the header one sync reads; a tab with more fails the sync, naming this setting. Default ${MAX_ROWS}.` }),
  })
  .strict();

export type SheetsSettings = z.infer<typeof SheetsSettings>;
type Ctx = ConnectorContext<SheetsSettings, GoogleSecrets>;
type Cell = string | number | boolean | null | undefined;

interface ValueRange {
  range?: string;
  majorDimension?: string;
  values?: Cell[][];
}

/** Where each column is: the key's and each target locale's (0-based), and the locales whose column is to be added. */
interface Layout {
  key: number;
  source: number;
  notes?: number;
  context?: number;
  maxLength?: number;
  targets: Map<string, number>;
  /** Target locales without a column; with `add_missing_columns`, each has the column it gets. */
  missing: string[];
  added: Map<string, number>;
}

/**
 * What `write` needs: the row, the column letters (key and locales) the listing found, each cell as it was, and `free`:
 * the first column (0-based) after every cell the listing read, where added columns start.
 */
type SheetsRef = { row: number; columns: Record<string, string>; added: string[]; seen: Record<string, string>; free: number };

/** A column letter (A, Z, AA, ZZ) of a 0-based index. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** A range of the connection's tab in A1 notation, the title quoted as Sheets wants it (quotes doubled). */
const a1 = (ctx: Ctx, range: string) => `'${ctx.settings.sheet.replaceAll("'", "''")}'!${range}`;

const cellText = (value: Cell): string => (value === null || value === undefined ? '' : String(value));
/** With FORMULA rendering a formula reads as its text, `=` first. */
const isFormula = (value: Cell) => typeof value === 'string' && value.startsWith('=');
const sameHeader = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The words of Google's refusal of a write into a protected range ("You are trying to edit a protected cell or object."). */
const PROTECTED = /protected cell or object/i;

const wording = (ctx: Ctx): FailureWording => ({
  vendor: 'Google Sheets',
  credentials: `the secret service_account (a current key) and that spreadsheet ${ctx.settings.spreadsheet_id} is shared with its client_email as an editor`,
  settings: `the connection's spreadsheet_id '${ctx.settings.spreadsheet_id}' and sheet '${ctx.settings.sheet}'`,
});

/** Requests to the connection's spreadsheet, authorized with the service account, with Google's errors worded. */
function sheetsClient(ctx: Ctx) {
  const base = `${ctx.settings.api_url.replace(/\/+$/, '')}/v4/spreadsheets/${encodeURIComponent(ctx.settings.spreadsheet_id)}`;
  /** `writing` names the cells a write sends, for the error when some of them are protected. */
  async function call<T>(path: string, what: string, body?: unknown, writing?: string): Promise<T> {
    const authorization = await googleAuthorization(ctx.http, ctx.secrets, [SHEETS_SCOPE]);
    const response = await ctx.http.request(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (response.status === 400 || response.status === 403) {
      const said = vendorMessage(await response.clone().text().catch(() => ''));
      if (response.status === 400 && said.includes('Unable to parse range')) {
        await response.body?.cancel();
        throw new ConnectorError('config', `${what}: Google Sheets answered HTTP 400 (${said}): spreadsheet ${ctx.settings.spreadsheet_id} has no tab titled '${ctx.settings.sheet}'. Check the setting \`sheet\` (the tab's title exactly as shown).`);
      }
      // The account may edit the spreadsheet, just not these cells: the credentials and the sharing are fine.
      if (writing !== undefined && PROTECTED.test(said)) {
        await response.body?.cancel();
        const editor = ctx.secrets.service_account ? `the service account ${ctx.secrets.service_account.client_email}` : 'the account of `access_token`';
        throw new ConnectorError('config', `${what}: Google Sheets answered HTTP ${response.status} (${said}): some of the cells written to sheet '${ctx.settings.sheet}' are protected (${writing}). Remove that protection (Data → Protect sheets and ranges) or give ${editor} edit rights on the protected range, then sync again.`);
      }
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new ConnectorError('config', `${what}: Google Sheets answered HTTP 404 (Requested entity was not found): there is no spreadsheet '${ctx.settings.spreadsheet_id}'. Check the setting \`spreadsheet_id\` (the part of the URL after /d/).`);
    }
    if (!response.ok) throw await failure(response, what, wording(ctx));
    const answer = await readJson<T>(response, what, { maxBytes: MAX_ANSWER_BYTES, tooLarge: 'lower `max_rows` or move the strings to a smaller tab', required: true });
    return answer;
  }
  return { call };
}

/**
 * Finds the columns in the header row; a named column that is absent or repeated is a `config` error. Added columns
 * start at `free`, the first column after every cell read, so empty in every row and not only in the header.
 */
function readLayout(ctx: Ctx, header: Cell[], free: number): Layout {
  const { settings } = ctx;
  const titles = header.map((cell) => cellText(cell).trim());
  const where = `the header row (row ${settings.header_row}) of sheet '${settings.sheet}'`;
  const find = (name: string, setting: string, match: (title: string) => boolean = (t) => sameHeader(t, name)) => {
    const found = titles.flatMap((title, index) => (title !== '' && match(title) ? [index] : []));
    if (found.length > 1) throw new ConnectorError('config', `Columns ${found.map(columnLetter).join(' and ')} of ${where} are both headed '${name}' (${setting}); rename one.`);
    return found[0];
  };
  const required = (name: string, setting: string, match?: (title: string) => boolean) => {
    const index = find(name, setting, match);
    if (index === undefined) {
      const shown = titles.filter(Boolean).slice(0, 20).map((t) => `'${t}'`).join(', ');
      throw new ConnectorError('config', `No column headed '${name}' (${setting}) in ${where}; its headers are ${shown || 'empty'}. Check \`${setting}\` and \`header_row\`.`);
    }
    return index;
  };
  const key = required(settings.key_column, 'key_column');
  const source = settings.source_column ? required(settings.source_column, 'source_column') : required(ctx.sourceLocale, 'source_column', (t) => sameHeader(t, ctx.sourceLocale) || sameLocale(t, ctx.sourceLocale));
  const optional = (name: string | undefined, setting: string) => (name === undefined ? undefined : required(name, setting));
  const layout: Layout = { key, source, targets: new Map(), missing: [], added: new Map() };
  const notes = optional(settings.notes_column, 'notes_column');
  const context = optional(settings.context_column, 'context_column');
  const maxLength = optional(settings.max_length_column, 'max_length_column');
  if (notes !== undefined) layout.notes = notes;
  if (context !== undefined) layout.context = context;
  if (maxLength !== undefined) layout.maxLength = maxLength;
  const taken = new Set([key, source, notes, context, maxLength].filter((i) => i !== undefined));
  let nextEmpty = Math.max(free, titles.length);
  for (const target of ctx.targetLocales) {
    const mapped = Object.entries(settings.locales).find(([locale]) => sameLocale(locale, target))?.[1];
    const index = mapped ? find(mapped, `locales.${target}`) : find(target, `the ${target} column`, (t) => sameHeader(t, target) || sameLocale(t, target));
    if (index !== undefined && taken.has(index)) throw new ConnectorError('config', `Column ${columnLetter(index)} ('${titles[index]}') of ${where} is both a target column for ${target} and the key, source, notes, context or max-length column; give ${target} a column of its own.`);
    if (index !== undefined) {
      layout.targets.set(target, index);
      taken.add(index);
      continue;
    }
    layout.missing.push(target);
    if (settings.add_missing_columns && nextEmpty < LAST_COLUMN) layout.added.set(target, nextEmpty++);
  }
  return layout;
}

/** The header title a locale's added column gets: its `locales` mapping, else its tag. */
const addedTitle = (ctx: Ctx, locale: string) => Object.entries(ctx.settings.locales).find(([l]) => sameLocale(l, locale))?.[1] ?? locale;

/** The column letters a ref records: the key's and each writable locale's. */
function layoutColumns(layout: Layout): Record<string, string> {
  return {
    '': columnLetter(layout.key),
    ...Object.fromEntries([...layout.targets, ...layout.added].map(([locale, index]) => [locale, columnLetter(index)])),
  };
}

async function list(ctx: Ctx): Promise<Listing> {
  const { call } = sheetsClient(ctx);
  const { header_row: headerRow, max_rows: maxRows, sheet } = ctx.settings;
  // One row more than max_rows, to tell a tab that fits from one that does not.
  const range = a1(ctx, `A${headerRow}:${columnLetter(LAST_COLUMN - 1)}${headerRow + maxRows + 1}`);
  const read = await call<ValueRange>(`/values/${encodeURIComponent(range)}?valueRenderOption=FORMULA&majorDimension=ROWS`, `Reading sheet '${sheet}' of spreadsheet ${ctx.settings.spreadsheet_id}`);
  const rows = Array.isArray(read?.values) ? read.values : [];
  if (rows.length - 1 > maxRows) {
    throw new ConnectorError('config', `Sheet '${sheet}' has more than ${maxRows} rows under its header, the most one sync reads (\`max_rows\` ${maxRows}); raise \`max_rows\` or move strings to another tab.`);
  }
  // A column without a header may still hold a person's cells (comments): added columns go after the widest row.
  const free = Math.max(0, ...rows.map((cells) => (Array.isArray(cells) ? cells.length : 0)));
  const layout = readLayout(ctx, rows[0] ?? [], free);
  const columns = layoutColumns(layout);
  const added = [...layout.added.keys()];
  const strings: RemoteString[] = [];
  const keyRows = new Map<string, number>();
  const skipped = { noKey: 0, noSource: 0 };
  const formulas: string[] = [];
  for (let i = 1; i < rows.length; i++) {
    const cells = rows[i] ?? [];
    const row = headerRow + i;
    const key = cellText(cells[layout.key]).trim();
    const source = cellText(cells[layout.source]);
    if (!key) {
      if (source.trim()) skipped.noKey++;
      continue;
    }
    const first = keyRows.get(key);
    if (first !== undefined) {
      throw new ConnectorError('config', `Sheet '${sheet}' repeats the key '${key}' in rows ${first} and ${row} (column ${columnLetter(layout.key)}, '${ctx.settings.key_column}'); keys must be unique. Rename or remove one of the rows.`);
    }
    keyRows.set(key, row);
    if (!source.trim()) {
      skipped.noSource++;
      continue;
    }
    const seen: Record<string, string> = {};
    const translations: Record<string, string> = {};
    for (const [locale, index] of layout.targets) {
      const value = cells[index];
      seen[locale] = cellText(value);
      if (isFormula(value)) formulas.push(`${columnLetter(index)}${row} (${locale})`);
      else if (seen[locale] !== '') translations[locale] = seen[locale];
    }
    for (const locale of added) seen[locale] = '';
    const stated = layout.maxLength === undefined ? NaN : Number(cellText(cells[layout.maxLength]));
    const notes = layout.notes === undefined ? '' : cellText(cells[layout.notes]).trim();
    const context = layout.context === undefined ? '' : cellText(cells[layout.context]).trim();
    const ref: SheetsRef = { row, columns, added, seen, free };
    strings.push({
      key,
      source,
      ...(notes ? { notes } : {}),
      ...(context ? { context } : {}),
      // Only a limit a person stated: a key's max length replaces the project's length budget, so the cell's own
      // 50,000 characters (which a translation within the budget does not reach) would switch the budget off.
      ...(Number.isInteger(stated) && stated > 0 ? { maxLength: Math.min(stated, CELL_MAX_CHARS) } : {}),
      ref,
      translations,
    });
  }
  const notes = [`Read ${Math.max(rows.length - 1, 0)} row(s) of sheet '${sheet}': ${strings.length} string(s).`];
  if (skipped.noKey) notes.push(`${skipped.noKey} row(s) with a source text but no key were left out.`);
  if (skipped.noSource) notes.push(`${skipped.noSource} row(s) with a key but no source text were left out.`);
  if (formulas.length) notes.push(`${formulas.length} formula cell(s) in target columns are a person's construction, not imported and never overwritten: ${formulas.slice(0, 10).join(', ')}.`);
  const notAdded = layout.missing.filter((l) => !layout.added.has(l));
  if (notAdded.length) notes.push(`No column for ${notAdded.join(', ')} in the header row: nothing written for ${notAdded.length === 1 ? 'it' : 'them'}; add a column headed with the tag (or map it in \`locales\`), or set \`add_missing_columns\`.`);
  if (added.length) notes.push(`Columns for ${added.map((l) => `${l} (${columnLetter(layout.added.get(l)!)})`).join(', ')} are added at the first write.`);
  return { units: [{ kind: 'strings', path: sheet, strings, locales: [...layout.targets.keys(), ...added] }], note: notes.join(' ') };
}

function readRef(write: StringWrite): SheetsRef {
  const ref = write.ref as SheetsRef | undefined;
  if (!ref || !Number.isInteger(ref.row) || !Number.isInteger(ref.free) || typeof ref.columns !== 'object' || typeof ref.seen !== 'object' || !Array.isArray(ref.added)) {
    throw new ConnectorError('config', `Writing '${write.key}' (${write.locale}) to Google Sheets: the string carries no row reference; sync again so it is listed anew.`);
  }
  return ref;
}

/** The cells a batchUpdate sends and their columns, for an error: `cells C2, D2 in column(s) C (de), D (fr)`. */
function writtenCells(cells: string[], columns: Record<string, string>): string {
  const locales = new Map(Object.entries(columns).filter(([locale]) => locale !== '').map(([locale, letter]) => [letter, locale]));
  const letters = [...new Set(cells.map((cell) => cell.replace(/\d+$/, '')))];
  const shown = cells.length > 10 ? `${cells.slice(0, 10).join(', ')} and ${cells.length - 10} more` : cells.join(', ');
  return `cells ${shown} in column(s) ${letters.map((l) => (locales.has(l) ? `${l} (${locales.get(l)})` : l)).join(', ')}`;
}

const sameColumns = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

async function write(ctx: Ctx, writeBack: WriteBack): Promise<WriteResult> {
  if (writeBack.strings.length === 0) return { written: 0 };
  const { call } = sheetsClient(ctx);
  const { header_row: headerRow, max_rows: maxRows, sheet } = ctx.settings;
  const planned = writeBack.strings.map((one) => ({ one, ref: readRef(one) }));
  const listed = planned[0]!.ref;
  const absent = new Set(planned.filter(({ one, ref }) => ref.columns[one.locale] === undefined).map(({ one }) => one.locale));
  const writable = planned.filter(({ one, ref }) => ref.columns[one.locale] !== undefined);
  // Writes left undone are not recorded as written (WriteResult.skipped): the next listing compares with what was there.
  const unwritten: StringWrite[] = planned.filter(({ one, ref }) => ref.columns[one.locale] === undefined).map(({ one }) => one);
  const skippedOf = () => (unwritten.length ? { skipped: unwritten.map((u) => ({ path: u.path, key: u.key, locale: u.locale })) } : {});
  if (writable.length === 0) return { written: 0, ...skippedOf(), note: `Not written: ${[...absent].join(', ')} has no column in sheet '${sheet}'.` };
  const first = Math.min(...writable.map((w) => w.ref.row));
  const last = Math.max(...writable.map((w) => w.ref.row));
  const letters = [...new Set(writable.map(({ one, ref }) => ref.columns[one.locale]!))];
  const addedLetters = listed.added.map((locale) => listed.columns[locale]!);
  // The header row, the key column, the written columns and the whole of each column to be added, as they are now, in
  // one request just before the write.
  const ranges = [
    a1(ctx, `A${headerRow}:${columnLetter(LAST_COLUMN - 1)}${headerRow}`),
    ...[listed.columns['']!, ...letters].map((c) => a1(ctx, `${c}${first}:${c}${last}`)),
    ...addedLetters.map((c) => a1(ctx, `${c}${headerRow}:${c}${headerRow + maxRows + 1}`)),
  ];
  const query = new URLSearchParams({ valueRenderOption: 'FORMULA', majorDimension: 'COLUMNS' });
  for (const range of ranges) query.append('ranges', range);
  const now = await call<{ valueRanges?: ValueRange[] }>(`/values:batchGet?${query}`, `Reading sheet '${sheet}' again before writing`);
  const [headerNow, keysNow, ...rest] = now?.valueRanges ?? [];
  const columnsNow = rest.slice(0, letters.length);
  const addedNow = rest.slice(letters.length);
  const header = (headerNow?.values ?? []).map((column) => column[0]);
  let layout: Layout;
  try {
    layout = readLayout(ctx, header, listed.free);
  } catch (error) {
    throw new ConnectorError('config', `The header row (row ${headerRow}) of sheet '${sheet}' changed since the listing; nothing was written, and the next sync reads it anew. ${(error as Error).message}`);
  }
  const columnsAgain = layoutColumns(layout);
  if (!sameColumns(columnsAgain, listed.columns) || planned.some((p) => !sameColumns(p.ref.columns, listed.columns))) {
    throw new ConnectorError('config', `The header row (row ${headerRow}) of sheet '${sheet}' changed since the listing (columns ${JSON.stringify(listed.columns)} are now ${JSON.stringify(columnsAgain)}); nothing was written, and the next sync reads it anew.`);
  }
  // A column still to be added must still be empty in every row: a person may have typed into it since the listing.
  const filled = listed.added.filter((locale, i) => layout.added.has(locale) && (addedNow[i]?.values ?? []).some((column) => column.some((cell) => cellText(cell) !== '')));
  if (filled.length) {
    throw new ConnectorError('config', `Column(s) ${filled.map((l) => `${listed.columns[l]} (for ${l})`).join(', ')} of sheet '${sheet}', empty at the listing and to be added, now hold cells; nothing was written, and the next sync adds the column(s) after them.`);
  }
  const at = (range: ValueRange | undefined, row: number): Cell => range?.values?.[0]?.[row - first];
  const data: { range: string; majorDimension: 'ROWS'; values: string[][] }[] = [];
  const kept: string[] = [];
  const moved: string[] = [];
  const formulas: string[] = [];
  const writing = new Set<string>();
  for (const { one, ref } of writable) {
    const letter = ref.columns[one.locale]!;
    const cell = `${letter}${ref.row}`;
    if (cellText(at(keysNow, ref.row)).trim() !== one.key) {
      moved.push(`${one.key} (row ${ref.row})`);
      unwritten.push(one);
      continue;
    }
    const there = at(columnsNow[letters.indexOf(letter)], ref.row);
    if (isFormula(there) && there !== one.text) {
      formulas.push(`${cell} (${one.locale})`);
      unwritten.push(one);
      continue;
    }
    if (cellText(there) === one.text) continue;
    if (cellText(there) !== (ref.seen[one.locale] ?? '')) {
      kept.push(`${one.key} (${one.locale}, ${cell})`);
      unwritten.push(one);
      continue;
    }
    data.push({ range: a1(ctx, cell), majorDimension: 'ROWS', values: [[one.text]] });
    writing.add(one.locale);
  }
  // A column added for a locale gets its header with its first cell.
  const headed = listed.added.filter((locale) => layout.added.has(locale) && writing.has(locale));
  for (const locale of headed) data.unshift({ range: a1(ctx, `${listed.columns[locale]}${headerRow}`), majorDimension: 'ROWS', values: [[addedTitle(ctx, locale)]] });
  let written = 0;
  for (let i = 0; i < data.length; i += WRITE_BATCH) {
    const chunk = data.slice(i, i + WRITE_BATCH);
    const what = `Writing ${chunk.length} cell(s) of sheet '${sheet}'${written ? ` (${written} written before)` : ''}`;
    const answer = await call<{ totalUpdatedCells?: number }>('/values:batchUpdate', what, { valueInputOption: 'RAW', data: chunk }, writtenCells(chunk.map((d) => d.range.slice(d.range.lastIndexOf('!') + 1)), listed.columns));
    written += typeof answer?.totalUpdatedCells === 'number' ? answer.totalUpdatedCells : chunk.length;
  }
  written -= headed.length;
  const notes: string[] = [];
  if (written) notes.push(`Wrote ${written} cell(s) of sheet '${sheet}'.`);
  if (headed.length) notes.push(`Added the column(s) ${headed.map((l) => `${listed.columns[l]} (${addedTitle(ctx, l)})`).join(', ')}.`);
  if (kept.length) notes.push(`Left ${kept.length} cell(s) a person changed since the listing: ${kept.slice(0, 10).join(', ')}.`);
  if (formulas.length) notes.push(`Left ${formulas.length} formula cell(s): ${formulas.slice(0, 10).join(', ')}.`);
  if (moved.length) notes.push(`Not written: the key is no longer in its row (rows inserted, removed or sorted since the listing): ${moved.slice(0, 10).join(', ')}; the next sync reads the rows anew.`);
  if (absent.size) notes.push(`Not written: ${[...absent].join(', ')} has no column in sheet '${sheet}'; add a column headed with the tag.`);
  const url = `https://docs.google.com/spreadsheets/d/${encodeURIComponent(ctx.settings.spreadsheet_id)}/edit`;
  return { written, url, ...skippedOf(), ...(notes.length ? { note: notes.join(' ') } : {}) };
}

export const googleSheets: Connector<SheetsSettings, GoogleSecrets> = {
  id: 'google_sheets',
  name: 'Google Sheets',
  category: 'content',
  direction: 'two_way',
  summary: "A tab of a Google spreadsheet with a key column, a source column and one column per locale: each row's source text is translated into its locale cells (only those are written, never a formula or a cell a person changed since the listing).",
  settings: SheetsSettings,
  secrets: googleSecrets,
  list,
  write,
};
