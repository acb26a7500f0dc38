/** Reads a Crowdin project (API v2, crowdin.com or an Enterprise organization) or its translations archive into import chunks. */
import { abortableSleep } from '../platform-http.js';
import type { FormatId, PluralForms } from '../../../src/core/formats/codec.js';
import { ImportSourceError, pathRefusal, type ApiSource, type ImportChunk, type ImportedKey, type ImportedTranslation, type PlatformReader, type ReaderContext } from '../import-model.js';
import { glossaryFromTbx, memoryFromTmx, readCrowdinArchive } from './crowdin-archive.js';

const DEFAULT_BASE_URL = 'https://api.crowdin.com/api/v2';
/** Crowdin's largest page (its `limit` parameter accepts 1 to 500). */
const PAGE = 500;

/** Crowdin file types (SourceFilesModel.FileType) whose Parlance format is the same file. */
const FORMATS: Partial<Record<string, FormatId>> = {
  json: 'json',
  android: 'android_xml',
  macosx: 'ios_strings',
  stringsdict: 'ios_stringsdict',
  gettext: 'po',
  yaml: 'yaml',
  properties: 'properties',
  resx: 'resx',
  xliff: 'xliff12',
  xliff_two: 'xliff2',
  csv: 'csv',
  xlsx: 'xlsx',
  md: 'markdown',
};

interface CrowdinLanguage {
  id: string;
}
interface CrowdinProject {
  id: number;
  name: string;
  sourceLanguageId: string;
  targetLanguageIds: string[];
  sourceLanguage?: CrowdinLanguage;
}
interface CrowdinFile {
  id: number;
  name: string;
  type: string;
  path: string;
}
interface CrowdinString {
  id: number;
  identifier: string;
  text: string | PluralForms;
  context: string | null;
  maxLength: number;
  labelIds: number[];
  fileId: number;
  hasPlurals?: boolean;
}
type CrowdinLanguageTranslation =
  | { stringId: number; contentType: string; translationId: number; text: string }
  | { stringId: number; contentType: string; plurals: { translationId: number; text: string; pluralForm: string }[] };
interface CrowdinApproval {
  translationId: number;
  stringId: number;
}
interface CrowdinStatus {
  identifier: string;
  status: string;
}
/** One page of a list and the offset of the next, undefined after the last. */
interface Page<T> {
  items: T[];
  next: number | undefined;
}
interface CrowdinResource {
  id: number;
  name: string;
  projectIds?: number[];
}

/** Where the reader is: glossaries, TMs, then one file's strings and each target language's translations of that file. */
type Checkpoint =
  | { stage: 'files'; file: number; language: number; offset: number }
  | { stage: 'memory'; index: number }
  | { stage: 'glossary'; index: number }
  | { stage: 'done' };

function isCheckpoint(value: unknown): value is Checkpoint {
  return typeof value === 'object' && value !== null && typeof (value as { stage?: unknown }).stage === 'string';
}

/** Crowdin's error body: `{ error: { code, message } }`, or `{ errors: [{ error: { key, errors: [{ code, message }] } }] }` for validation. */
function crowdinError(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown }; errors?: { error?: { key?: unknown; errors?: { code?: unknown; message?: unknown }[] } }[] };
    if (parsed.error?.message) return `${String(parsed.error.code ?? '')} ${String(parsed.error.message)}`.trim();
    const details = (parsed.errors ?? []).flatMap((e) => (e.error?.errors ?? []).map((d) => `${String(e.error?.key)}: ${String(d.code)} ${String(d.message)}`));
    if (details.length > 0) return details.join('; ');
  } catch {
    // Not JSON: Crowdin's edge (nginx) answers some errors with an HTML page.
  }
  return body.replace(/\s+/g, ' ').slice(0, 200);
}

function tokenPage(base: string): string {
  const host = new URL(base).hostname;
  const org = /^([a-z0-9-]+)\.api\.crowdin\.com$/i.exec(host)?.[1];
  return org ? `https://${org}.crowdin.com/u/user_settings/access-tokens` : 'https://crowdin.com/settings#api-key';
}

function createApi(source: ApiSource, context: ReaderContext) {
  const base = (source.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const projectId = source.project.trim();
  if (!/^\d+$/.test(projectId)) {
    throw new ImportSourceError(`'${source.project}' is not a Crowdin project id. Expected the number shown in the project's Tools > API page (for example '428571').`);
  }
  const auth = { authorization: `Bearer ${source.token}` };

  async function call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const url = `${base}${path}`;
    const response = await context.http.request(url, {
      method: init.method ?? 'GET',
      headers: init.body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as T;
    const detail = crowdinError(text);
    if (response.status === 401) {
      throw new ImportSourceError(`Crowdin refused the API token (HTTP 401: ${detail}). Create a personal access token with the Projects scope at ${tokenPage(base)} and start the import again.`);
    }
    if (response.status === 403) {
      throw new ImportSourceError(`Crowdin refused access to project ${projectId} with this token (HTTP 403: ${detail}). The token's owner must be a manager of the project, and the token needs the Projects, Translation Memory and Glossary scopes (${tokenPage(base)}).`);
    }
    if (response.status === 404 && path === `/projects/${projectId}`) {
      throw new ImportSourceError(`Crowdin has no project ${projectId} that this token can see (HTTP 404: ${detail}). Check the project id on the project's Tools > API page${source.baseUrl ? ` and that ${base} is your organization's API address` : ''}.`);
    }
    throw new Error(`Crowdin answered ${init.method ?? 'GET'} ${path} of project ${projectId} with HTTP ${response.status}: ${detail}`);
  }

  /**
   * One page of a Crowdin list, `{ data: [{ data: T }], pagination: { offset, limit } }`, and where the next starts:
   * a page shorter than the limit Crowdin applied is the last.
   */
  async function page<T>(path: string, offset: number): Promise<Page<T>> {
    const separator = path.includes('?') ? '&' : '?';
    const body = await call<{ data: { data: T }[]; pagination?: { limit?: number } }>(`${path}${separator}limit=${PAGE}&offset=${offset}`);
    const items = body.data.map((item) => item.data);
    const applied = body.pagination?.limit ?? PAGE;
    return { items, next: items.length === 0 || items.length < applied ? undefined : offset + items.length };
  }

  async function all<T>(path: string): Promise<T[]> {
    const out: T[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const { items, next }: Page<T> = await page<T>(path, offset);
      out.push(...items);
      offset = next;
    }
    return out;
  }

  /** Crowdin's asynchronous export: start it, poll its status until finished, then fetch the file behind the download link. */
  async function exportFile(resource: string, request: unknown, what: string): Promise<Uint8Array> {
    const started = await call<{ data: CrowdinStatus }>(`${resource}/exports`, { method: 'POST', body: request });
    let status = started.data;
    for (let attempt = 0; status.status !== 'finished'; attempt++) {
      if (status.status === 'failed' || status.status === 'canceled') throw new Error(`Crowdin's export of ${what} ended as '${status.status}' (export ${status.identifier}).`);
      if (attempt >= 120) throw new Error(`Crowdin's export of ${what} is still '${status.status}' after ${attempt} checks (export ${status.identifier}); start the import again later.`);
      await abortableSleep(Math.min(5000, 100 * 2 ** Math.min(attempt, 6)), context.signal);
      status = (await call<{ data: CrowdinStatus }>(`${resource}/exports/${status.identifier}`)).data;
    }
    const link = await call<{ data: { url: string } }>(`${resource}/exports/${status.identifier}/download`);
    // The link is a pre-signed storage address: the Crowdin token must not go there (the storage refuses a second credential).
    const response = await context.http.request(link.data.url, { headers: { accept: '*/*' } });
    if (!response.ok) throw new Error(`Crowdin's download link for ${what} answered HTTP ${response.status}: ${crowdinError(await response.text())}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  return { base, projectId, call, page, all, exportFile };
}


/** A Crowdin file's path in the repository: Crowdin writes it with a leading '/'. */
const repositoryPath = (file: CrowdinFile) => file.path.replace(/^\/+/, '');

/** The string as an ImportedKey; Crowdin's one `context` field is what its parsers fill from file comments, so it is the key's notes. */
function toKey(s: CrowdinString, file: CrowdinFile, labels: ReadonlyMap<number, string>): ImportedKey {
  const format = FORMATS[file.type];
  const plural = typeof s.text === 'object' && s.text !== null;
  const tags = s.labelIds.map((id) => labels.get(id)).filter((t): t is string => t !== undefined);
  return {
    ref: `Crowdin string ${s.id}`,
    path: repositoryPath(file),
    ...(format ? { format } : {}),
    key: s.identifier,
    source: plural ? ((s.text as PluralForms).other ?? '') : (s.text as string),
    ...(plural ? { plurals: { ...(s.text as PluralForms) } } : {}),
    ...(s.context ? { notes: s.context } : {}),
    ...(s.maxLength > 0 ? { maxLength: s.maxLength } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
}

function toTranslation(t: CrowdinLanguageTranslation, key: ImportedKey, locale: string, approved: ReadonlySet<number>): ImportedTranslation | undefined {
  if ('plurals' in t) {
    if (t.plurals.length === 0) return undefined;
    const plurals: PluralForms = {};
    for (const form of t.plurals) plurals[form.pluralForm as keyof PluralForms] = form.text;
    return {
      ref: `Crowdin string ${t.stringId} in ${locale}`,
      path: key.path,
      key: key.key,
      locale,
      text: plurals.other ?? t.plurals[t.plurals.length - 1]!.text,
      plurals,
      // A plural translation is reviewed when every form of it is approved.
      reviewed: t.plurals.every((form) => approved.has(form.translationId)),
    };
  }
  return { ref: `Crowdin translation ${t.translationId}`, path: key.path, key: key.key, locale, text: t.text, reviewed: approved.has(t.translationId) };
}

async function readApi(source: ApiSource, context: ReaderContext): Promise<void> {
  const api = createApi(source, context);
  const pid = api.projectId;
  const project = (await api.call<{ data: CrowdinProject }>(`/projects/${pid}`)).data;
  const files = (await api.all<CrowdinFile>(`/projects/${pid}/files`)).sort((a, b) => a.id - b.id);
  const labels = new Map((await api.all<{ id: number; title: string }>(`/projects/${pid}/labels`)).map((l) => [l.id, l.title]));
  const languages = project.targetLanguageIds;
  const locales: ImportChunk = { kind: 'locales', source: project.sourceLanguageId, targets: languages };

  // Glossaries and TMs first: every translation is then gated against the project's whole glossary.
  let at: Checkpoint = isCheckpoint(context.checkpoint) ? context.checkpoint : { stage: 'glossary', index: 0 };
  const belongs = (r: CrowdinResource) => (r.projectIds ?? []).includes(project.id);
  if (at.stage === 'glossary') {
    const glossaries = (await api.all<CrowdinResource>('/glossaries')).filter(belongs);
    for (let i = at.index; i < glossaries.length; i++) {
      const glossary = glossaries[i]!;
      context.progress(`Exporting glossary '${glossary.name}'`, i, glossaries.length);
      const tbx = await api.exportFile(`/glossaries/${glossary.id}`, { format: 'tbx' }, `glossary ${glossary.id} ('${glossary.name}')`);
      const terms = glossaryFromTbx(tbx, project.sourceLanguageId, `Crowdin glossary ${glossary.id}`);
      await context.emit([locales, { kind: 'glossary', terms }], i + 1 < glossaries.length ? { stage: 'glossary', index: i + 1 } : { stage: 'memory', index: 0 });
    }
    if (glossaries.length === 0) await context.emit([locales], { stage: 'memory', index: 0 });
    at = { stage: 'memory', index: 0 };
  }
  if (at.stage === 'memory') {
    const tms = (await api.all<CrowdinResource>('/tms')).filter(belongs);
    for (let i = at.index; i < tms.length; i++) {
      const tm = tms[i]!;
      context.progress(`Exporting translation memory '${tm.name}'`, i, tms.length);
      const tmx = await api.exportFile(`/tms/${tm.id}`, { format: 'tmx' }, `translation memory ${tm.id} ('${tm.name}')`);
      const units = memoryFromTmx(tmx, project.sourceLanguageId, `Crowdin translation memory ${tm.id}`);
      await context.emit([{ kind: 'memory', units }], i + 1 < tms.length ? { stage: 'memory', index: i + 1 } : { stage: 'files', file: 0, language: -1, offset: 0 });
    }
    if (tms.length === 0) await context.emit([], { stage: 'files', file: 0, language: -1, offset: 0 });
    at = { stage: 'files', file: 0, language: -1, offset: 0 };
  }
  if (at.stage === 'files') {
    for (let f = at.file; f < files.length; f++) {
      const file = files[f]!;
      const refusal = pathRefusal(repositoryPath(file), `the path of Crowdin file ${file.id}`);
      if (refusal) {
        await context.emit([refusal], f + 1 < files.length ? { stage: 'files', file: f + 1, language: -1, offset: 0 } : { stage: 'done' });
        continue;
      }
      // Where this file's reading resumes: strings from an offset (language -1), or a language's translations from an offset.
      const resume = f === at.file ? at : { language: -1, offset: 0 };
      // The file's strings are always read again: the translations name only string ids.
      const keys = new Map<number, ImportedKey>();
      for (let offset: number | undefined = 0; offset !== undefined; ) {
        context.progress(`Reading strings of ${file.path} (file ${f + 1} of ${files.length})`, f, files.length);
        const { items: strings, next }: Page<CrowdinString> = await api.page<CrowdinString>(`/projects/${pid}/strings?fileId=${file.id}`, offset);
        const chunk = strings.map((s) => toKey(s, file, labels));
        strings.forEach((s, i) => keys.set(s.id, chunk[i]!));
        if (resume.language < 0 && offset >= resume.offset) {
          await context.emit([locales, { kind: 'keys', keys: chunk }], next === undefined ? { stage: 'files', file: f, language: 0, offset: 0 } : { stage: 'files', file: f, language: -1, offset: next });
        }
        offset = next;
      }
      for (let l = Math.max(0, resume.language); l < languages.length; l++) {
        const locale = languages[l]!;
        context.progress(`Reading ${locale} translations of ${file.path}`, f, files.length);
        // Approvals are per translation (per plural form): a string's translation is reviewed when the one shown is approved.
        const approvals = await api.all<CrowdinApproval>(`/projects/${pid}/approvals?fileId=${file.id}&languageId=${encodeURIComponent(locale)}`);
        const approved = new Set(approvals.map((a) => a.translationId));
        for (let offset: number | undefined = l === resume.language ? resume.offset : 0; offset !== undefined; ) {
          const { items: rows, next: nextOffset }: Page<CrowdinLanguageTranslation> = await api.page<CrowdinLanguageTranslation>(`/projects/${pid}/languages/${encodeURIComponent(locale)}/translations?fileId=${file.id}`, offset);
          const chunks: ImportChunk[] = [];
          const translations: ImportedTranslation[] = [];
          for (const row of rows) {
            const key = keys.get(row.stringId);
            if (!key) {
              chunks.push({ kind: 'warning', message: `Crowdin returned a ${locale} translation of string ${row.stringId}, which is not among the strings of ${file.path}; it was left out.`, ref: `Crowdin string ${row.stringId}` });
              continue;
            }
            const t = toTranslation(row, key, locale, approved);
            if (t) translations.push(t);
          }
          const next: Checkpoint =
            nextOffset !== undefined
              ? { stage: 'files', file: f, language: l, offset: nextOffset }
              : l + 1 < languages.length
                ? { stage: 'files', file: f, language: l + 1, offset: 0 }
                : f + 1 < files.length
                  ? { stage: 'files', file: f + 1, language: -1, offset: 0 }
                  : { stage: 'done' };
          await context.emit([...chunks, { kind: 'translations', rows: translations }], next);
          offset = nextOffset;
        }
      }
    }
    if (files.length === 0) await context.emit([locales], { stage: 'done' });
  }
}

export const crowdinReader: PlatformReader = {
  platform: 'crowdin',
  readApi,
  readArchive: readCrowdinArchive,
};
