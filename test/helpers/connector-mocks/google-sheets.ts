/**
 * A local Google Sheets API v4 holding one spreadsheet with tabs of cells (text, numbers, booleans, formulas), behind
 * Google's OAuth token endpoint (google-oauth.ts): `GET …/values/{range}` and `GET …/values:batchGet?ranges=…` (with
 * `valueRenderOption` FORMULA, FORMATTED_VALUE or UNFORMATTED_VALUE and `majorDimension` ROWS or COLUMNS), and
 * `POST …/values:batchUpdate` (RAW stores the text as it is; USER_ENTERED turns `=…` into a formula). Every API request
 * needs a token with the spreadsheets scope; the spreadsheet is shared with the accounts the mock knows.
 *
 * Shapes from developers.google.com/sheets/api/reference/rest/v4/spreadsheets.values (ValueRange `{ range,
 * majorDimension, values }` with trailing empty rows and columns left out and `values` absent for an empty range;
 * BatchGetValuesResponse `{ spreadsheetId, valueRanges }`; BatchUpdateValuesResponse `{ spreadsheetId,
 * totalUpdatedRows, totalUpdatedColumns, totalUpdatedCells, totalUpdatedSheets, responses: [UpdateValuesResponse] }`),
 * …/ValueRenderOption and …/ValueInputOption, A1 notation with quoted sheet titles from …/guides/concepts, and Google's
 * error envelope `{ error: { code, message, status } }`: 400 INVALID_ARGUMENT "Unable to parse range: …" (as quoted in
 * many client issues, e.g. googleworkspace/java-samples#42, with its `errors` list), "Invalid data[0]: Unable to parse
 * range: …" for batchUpdate (burnash/gspread#1601), "Your input contains more than the maximum of 50000 characters in
 * a single cell." (freelabz/secator#96), 404 NOT_FOUND "Requested entity was not found.", 403 PERMISSION_DENIED "The
 * caller does not have permission", 429 RESOURCE_EXHAUSTED, and for a batchUpdate touching a protected range (`protect`)
 * "You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you
 * need to edit." (the wording quoted in theoephraim/node-google-spreadsheet#20, from Google's older Sheets API).
 *
 * Guessed: the `range` echoed in answers (the mock echoes the requested range as sent; Google clips it to the tab's
 * grid and may drop the quotes); the grid itself is unbounded here (Google's tab has a row and column count, and writes
 * past it extend it); the 429 message wording; that the v4 API sends the protected-cell refusal as 403
 * PERMISSION_DENIED with that message (the older API answered 400; third-party guides say 403); the message for a
 * missing valueInputOption; that a RAW text beginning with `=` reads back under FORMULA exactly like a formula (the
 * values API has no type beside the value); that a batchUpdate is applied whole or not at all.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SEED, type RemoteFixture } from '../connector-kit.js';
import { googleTokenEndpoint, makeServiceAccount, type ServiceAccountFile } from './google-oauth.js';
import { sendJson, serveOnLoopback } from './loopback.js';

export const SHEETS_SPREADSHEET = '1PrlncSheetsMockSpreadsheet0000000000000000';
export const SHEETS_TAB = 'Strings';
const SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** The tab's columns: key, source, two locales, notes, and a column the connector must never touch. */
export const SHEETS_HEADER = ['key', 'en', 'de', 'fr', 'notes', 'Owner'] as const;
export const SHEETS_SETTINGS = { spreadsheet_id: SHEETS_SPREADSHEET, sheet: SHEETS_TAB, notes_column: 'notes' };

/** A formula cell: its text, and what it shows. */
export interface Formula {
  formula: string;
  shows: string | number;
}
export type MockCell = string | number | boolean | Formula | undefined;

export interface SheetsRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface SheetsMock {
  url: string;
  tokenUri: string;
  account: ServiceAccountFile;
  /** A key file of an account Google does not know. */
  stranger: ServiceAccountFile;
  requests: SheetsRequest[];
  /** The tabs' cells, by title: rows of cells, row 1 first. */
  tabs: Map<string, MockCell[][]>;
  /** A cell of the Strings tab by row number and column header (undefined when empty). */
  cell(row: number, header: string): MockCell;
  /** A person types into a cell of the Strings tab. */
  edit(row: number, header: string, value: MockCell): void;
  /** The row number of a key in the Strings tab. */
  rowOf(key: string): number;
  /** A person inserts an empty row before `row`. */
  insertRow(row: number): void;
  /** The tabs as they were at the start: the SEED strings, no translations, no protected range. */
  reset(): void;
  /** Protects a range (`'Strings'!C1:C10`, or `C1:C10` of the Strings tab) from the service account, as Data → Protect sheets and ranges does. */
  protect(range: string): void;
  /** The next `count` API requests answer 429 (Google's RESOURCE_EXHAUSTED). */
  rateLimitNext(count?: number): void;
  revokeAll(): void;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const googleError = (res: ServerResponse, code: number, status: string, message: string, extra: Record<string, unknown> = {}) => sendJson(res, code, { error: { code, message, ...extra, status } });

/** A column's 0-based index from its letters. */
const columnIndex = (letters: string) => [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;

interface Parsed {
  tab: string;
  c1: number;
  r1: number;
  c2: number;
  r2: number;
}

/** A1 notation: `'Title'!A1:B2`, `Title!C5`, `Title!A1:ZZ10`; the whole tab for a bare title. */
function parseRange(range: string, tabs: Map<string, MockCell[][]>): Parsed | undefined {
  const match = /^(?:'((?:[^']|'')+)'|([^!']+))(?:!([A-Za-z]+)(\d+)(?::([A-Za-z]+)(\d+))?)?$/.exec(range);
  if (!match) return undefined;
  const tab = match[1] !== undefined ? match[1].replaceAll("''", "'") : match[2]!;
  if (!tabs.has(tab)) return undefined;
  if (match[3] === undefined) return { tab, c1: 0, r1: 1, c2: 701, r2: 1_000_000 };
  const c1 = columnIndex(match[3]);
  const r1 = Number(match[4]);
  const c2 = match[5] !== undefined ? columnIndex(match[5]) : c1;
  const r2 = match[6] !== undefined ? Number(match[6]) : r1;
  if (r1 < 1 || r2 < r1 || c2 < c1) return undefined;
  return { tab, c1, r1, c2, r2 };
}

function rendered(cell: MockCell, option: string): string | number | boolean | undefined {
  if (cell === undefined || cell === '') return undefined;
  if (typeof cell === 'object') return option === 'FORMULA' ? cell.formula : option === 'FORMATTED_VALUE' ? String(cell.shows) : cell.shows;
  return option === 'FORMATTED_VALUE' ? String(cell) : cell;
}

/** A ValueRange as Google answers it: trailing empty rows and columns left out, `values` absent when nothing is there. */
function valueRange(tabs: Map<string, MockCell[][]>, range: string, p: Parsed, option: string, dimension: string) {
  const grid = tabs.get(p.tab)!;
  const rows: (string | number | boolean | undefined)[][] = [];
  for (let r = p.r1; r <= Math.min(p.r2, grid.length); r++) {
    const row = grid[r - 1] ?? [];
    rows.push(Array.from({ length: Math.max(0, Math.min(p.c2, row.length - 1) - p.c1 + 1) }, (_, i) => rendered(row[p.c1 + i], option)));
  }
  const trim = <T>(list: T[], empty: (v: T) => boolean) => {
    while (list.length > 0 && empty(list[list.length - 1]!)) list.pop();
    return list;
  };
  const cleaned = trim(
    rows.map((row) => trim(row, (v) => v === undefined).map((v) => v ?? '')),
    (row) => row.length === 0,
  );
  let values: unknown[][] = cleaned;
  if (dimension === 'COLUMNS') {
    const width = Math.max(0, ...cleaned.map((r) => r.length));
    values = Array.from({ length: width }, (_, c) => trim(cleaned.map((r) => r[c]), (v) => v === undefined || v === '').map((v) => v ?? ''));
  }
  return { range, majorDimension: dimension, ...(values.length > 0 ? { values } : {}) };
}

export async function startSheetsMock(): Promise<SheetsMock> {
  const requests: SheetsRequest[] = [];
  const tabs = new Map<string, MockCell[][]>();
  const protectedRanges: Parsed[] = [];
  const reset = () => {
    protectedRanges.length = 0;
    tabs.set(SHEETS_TAB, [[...SHEETS_HEADER], ...SEED.map(({ id, source }) => [id, source, undefined, undefined, `seed ${id}`, 'marketing'] as MockCell[])]);
    tabs.set('Other', [['key', 'en'], ['other.one', 'Elsewhere']]);
  };
  reset();
  let rateLimited = 0;

  function handle(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = body.toString('utf8');
    if (endpoint.handle(req, res, url, text)) return;
    let parsedBody: unknown;
    try {
      parsedBody = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body: parsedBody });
    if (rateLimited > 0) {
      rateLimited--;
      return googleError(res, 429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com'.");
    }
    if (endpoint.refuse(req, res, SCOPE)) return;
    const match = /^\/v4\/spreadsheets\/([^/:]+)(?:\/values(?:\/([^/]+)|:(batchGet|batchUpdate)))?$/.exec(url.pathname);
    if (!match) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    if (decodeURIComponent(match[1]!) !== SHEETS_SPREADSHEET) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const option = url.searchParams.get('valueRenderOption') ?? 'FORMATTED_VALUE';
    const dimension = url.searchParams.get('majorDimension') ?? 'ROWS';
    const badRange = (range: string, prefix = '') =>
      googleError(res, 400, 'INVALID_ARGUMENT', `${prefix}Unable to parse range: ${range}`, { errors: [{ message: `${prefix}Unable to parse range: ${range}`, domain: 'global', reason: 'badRequest' }] });
    if (req.method === 'GET' && match[2] !== undefined) {
      const range = decodeURIComponent(match[2]);
      const parsed = parseRange(range, tabs);
      if (!parsed) return badRange(range);
      return sendJson(res, 200, valueRange(tabs, range, parsed, option, dimension));
    }
    if (req.method === 'GET' && match[3] === 'batchGet') {
      const ranges = url.searchParams.getAll('ranges');
      const parsed = ranges.map((r) => parseRange(r, tabs));
      const bad = parsed.findIndex((p) => !p);
      if (bad >= 0) return badRange(ranges[bad]!);
      return sendJson(res, 200, { spreadsheetId: SHEETS_SPREADSHEET, valueRanges: ranges.map((r, i) => valueRange(tabs, r, parsed[i]!, option, dimension)) });
    }
    if (req.method === 'POST' && match[3] === 'batchUpdate') return batchUpdate(parsedBody, res, badRange);
    return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
  }

  function batchUpdate(body: unknown, res: ServerResponse, badRange: (range: string, prefix?: string) => void): void {
    const { valueInputOption, data } = (body ?? {}) as { valueInputOption?: unknown; data?: unknown };
    if (valueInputOption !== 'RAW' && valueInputOption !== 'USER_ENTERED') return googleError(res, 400, 'INVALID_ARGUMENT', "'valueInputOption' is required but not specified");
    if (!Array.isArray(data)) return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid value at \'data\'');
    const writes: { p: Parsed; values: unknown[][]; range: string }[] = [];
    // Google checks the whole request before changing a cell.
    for (const [index, item] of (data as { range?: unknown; values?: unknown; majorDimension?: unknown }[]).entries()) {
      const range = String(item.range ?? '');
      const p = parseRange(range, tabs);
      if (!p) return badRange(range, `Invalid data[${index}]: `);
      const values = Array.isArray(item.values) ? (item.values as unknown[][]) : [];
      if (values.length > p.r2 - p.r1 + 1 || values.some((row) => !Array.isArray(row) || row.length > p.c2 - p.c1 + 1)) {
        return googleError(res, 400, 'INVALID_ARGUMENT', `Invalid data[${index}]: Requested writing within range [${range}], but tried writing to row [${p.r1 + values.length - 1}]`);
      }
      if (values.some((row) => row.some((v) => typeof v === 'string' && v.length > 50_000))) return googleError(res, 400, 'INVALID_ARGUMENT', 'Your input contains more than the maximum of 50000 characters in a single cell.');
      writes.push({ p, values, range });
    }
    const overlaps = (a: Parsed, b: Parsed) => a.tab === b.tab && a.c1 <= b.c2 && b.c1 <= a.c2 && a.r1 <= b.r2 && b.r1 <= a.r2;
    if (writes.some(({ p }) => protectedRanges.some((q) => overlaps(p, q)))) {
      return googleError(res, 403, 'PERMISSION_DENIED', 'You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you need to edit.');
    }
    let cells = 0;
    const responses = writes.map(({ p, values, range }) => {
      const grid = tabs.get(p.tab)!;
      values.forEach((row, i) =>
        row.forEach((value, j) => {
          while (grid.length < p.r1 + i) grid.push([]);
          const target = grid[p.r1 + i - 1]!;
          const typed = value === null ? undefined : (value as string | number | boolean);
          target[p.c1 + j] = valueInputOption === 'USER_ENTERED' && typeof typed === 'string' && typed.startsWith('=') ? { formula: typed, shows: '' } : typed;
          cells++;
        }),
      );
      return { spreadsheetId: SHEETS_SPREADSHEET, updatedRange: range, updatedRows: values.length, updatedColumns: Math.max(0, ...values.map((r) => r.length)), updatedCells: values.reduce((n, r) => n + r.length, 0) };
    });
    sendJson(res, 200, { spreadsheetId: SHEETS_SPREADSHEET, totalUpdatedRows: writes.length, totalUpdatedColumns: writes.length, totalUpdatedCells: cells, totalUpdatedSheets: new Set(writes.map((w) => w.p.tab)).size, responses });
  }

  const server = await serveOnLoopback(handle);
  // The token endpoint lives on the same server, so the key files' token_uri is known once it listens.
  const tokenUri = `${server.url}/token`;
  const account = makeServiceAccount(tokenUri);
  const endpoint = googleTokenEndpoint(tokenUri, [account]);
  const stranger = makeServiceAccount(tokenUri, 'stranger').file;
  const strings = () => tabs.get(SHEETS_TAB)!;
  const column = (header: string) => {
    const index = strings()[0]!.indexOf(header);
    if (index < 0) throw new Error(`No column '${header}' in the mock's tab`);
    return index;
  };
  return {
    url: server.url,
    tokenUri,
    account: account.file,
    stranger,
    requests,
    tabs,
    cell: (row, header) => {
      const value = strings()[row - 1]?.[column(header)];
      return value === '' ? undefined : value;
    },
    edit(row, header, value) {
      while (strings().length < row) strings().push([]);
      strings()[row - 1]![column(header)] = value;
    },
    rowOf(key) {
      const row = strings().findIndex((r) => r[0] === key);
      if (row < 0) throw new Error(`No row with key '${key}'`);
      return row + 1;
    },
    insertRow(row) {
      strings().splice(row - 1, 0, []);
    },
    protect(range) {
      const parsed = parseRange(range.includes('!') ? range : `'${SHEETS_TAB}'!${range}`, tabs);
      if (!parsed) throw new Error(`Not a range of the mock: ${range}`);
      protectedRanges.push(parsed);
    },
    rateLimitNext(count = 1) {
      rateLimited = count;
    },
    reset,
    revokeAll: () => endpoint.revokeAll(),
    stop: server.stop,
    start: server.start,
    close: server.close,
  };
}

export async function sheetsFixture(): Promise<RemoteFixture> {
  const mock = await startSheetsMock();
  const text = (value: MockCell) => (value === undefined ? undefined : typeof value === 'object' ? value.formula : String(value));
  return {
    connector: 'google_sheets',
    settings: { ...SHEETS_SETTINGS, api_url: mock.url },
    secrets: { service_account: mock.account },
    badSecrets: { service_account: mock.stranger },
    async setSource(id, source) {
      mock.edit(mock.rowOf(id), 'en', source);
    },
    translation: async (id, locale) => text(mock.cell(mock.rowOf(id), locale)),
    async editTranslation(id, locale, value) {
      mock.edit(mock.rowOf(id), locale, value);
    },
    sourceCount: async () => mock.tabs.get(SHEETS_TAB)!.slice(1).filter((row) => row[0] !== undefined && row[0] !== '').length,
    stop: mock.stop,
    start: mock.start,
    close: mock.close,
  };
}
