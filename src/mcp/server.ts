/** The MCP server: 16 tools over the typed /v1 client, so an agent has exactly the powers of the token behind that client. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { ApiError, NetworkError, type ParlanceClient } from '../client/client.js';
import type { Batch, GateFailure, ReviewState, TranslationRow } from '../client/types.js';
import { FORMAT_IDS } from '../core/formats/codec.js';
import { batchReportText, readBatchReport } from './batch-report.js';

/** Each tool and the token ability its endpoint requires (the README's table is written from this). */
export const TOOL_ABILITIES = {
  get_project: 'read',
  list_languages: 'read',
  get_translation: 'read',
  upsert_translation: 'write',
  pull_file: 'pull',
  push_file: 'push',
  translate_missing: 'push',
  get_batch: 'read',
  list_batches: 'read',
  retry_batch: 'push',
  cancel_batch: 'push',
  run_qa: 'read',
  list_glossary: 'read',
  lock_glossary_term: 'write',
  update_glossary_term: 'write',
  delete_glossary_term: 'write',
} as const;

export type ToolName = keyof typeof TOOL_ABILITIES;

// Output shapes name the fields an agent reads and let the service add more without breaking validation.
const FailureOut = z.looseObject({ gate: z.string(), reason: z.string() });
const BatchOut = z.looseObject({
  id: z.string(),
  status: z.string(),
  path: z.string().nullable(),
  rows: z.looseObject({ total: z.number(), queued: z.number(), done: z.number(), failed: z.number(), cancelled: z.number(), outcomes: z.record(z.string(), z.number()).describe('Rows by outcome, e.g. translated, memory, refused, failed.') }),
  words: z.looseObject({ reserved: z.number(), spent: z.number(), refunded: z.number() }),
  error: z.string().nullable(),
});
const BatchRowOut = z.looseObject({
  key: z.string(),
  path: z.string(),
  locale: z.string(),
  status: z.string(),
  outcome: z.string(),
  reason: z.string().nullable(),
  gate_outcome: z.string().nullable(),
  gate_failures: z.array(FailureOut),
});
const TranslationOut = z.looseObject({ key: z.string(), path: z.string(), locale: z.string(), state: z.string(), source: z.string(), text: z.string(), failures: z.array(FailureOut) });
const TermOut = z.looseObject({ id: z.string(), term: z.string(), translations: z.record(z.string(), z.string()), forbidden: z.boolean(), case_sensitive: z.boolean() });
const RowGroupOut = { total: z.number(), rows: z.array(BatchRowOut) };

/** The states GET /v1/translations filters by; held and flagged rows are the review queue. */
const REVIEW_STATES = ['held', 'flagged', 'rejected', 'accepted', 'approved', 'human'] as const satisfies readonly ReviewState[];
const QUEUE_PAGE = 50;
const BATCH_ROWS_LISTED = 100;

const Locale = z.string().min(1).describe("A BCP-47 locale tag of one of the project's target languages, e.g. 'de' or 'pt-BR'.");
const Locales = z.array(Locale).min(1).describe("Target locales; omit for all of the project's languages.");
const Path = z.string().describe("The source file's repository path, e.g. 'locales/en.json'; needed only when the key exists in several files.");
const BatchId = z.string().min(1).describe("A batch id as returned by push_file or translate_missing, e.g. 'bat_…'.");
const TermId = z.string().min(1).describe("A glossary term id from list_glossary, e.g. 'gls_…'.");
const TermTranslations = z.record(z.string(), z.string()).describe('Required wording per locale, e.g. {"de": "Übersicht"}; a locale without an entry must keep the term as written.');

/** A successful tool answer: the structured result, and a short line for clients that show only text. */
function ok(summary: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: summary }], structuredContent: structured };
}

function problemField(error: ApiError, name: string): unknown {
  return typeof error.body === 'object' && error.body !== null ? (error.body as Record<string, unknown>)[name] : undefined;
}

/** What a user can fix, said plainly: the missing ability, the gate failures, the wait; otherwise the service's own detail. */
export function toolErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403 && typeof problemField(error, 'ability') === 'string') {
      return `Refused: this token lacks the '${String(problemField(error, 'ability'))}' ability. ${error.detail} Ask for a token with that ability.`;
    }
    if (error.status === 401) return `Not authenticated (401 ${error.code}): ${error.detail}`;
    if (error.status === 429) return `Rate limited: try again in ${error.retryAfterSeconds ?? 'a few'} s. ${error.detail}`;
    if (error.code === 'gate_refused') {
      const failures = (problemField(error, 'failures') ?? []) as GateFailure[];
      return `The translation was refused by the quality gates and not saved:\n${failures.map((f) => `- ${f.gate}: ${f.reason}`).join('\n')}`;
    }
    return `${error.status} ${error.code}: ${error.detail}`;
  }
  if (error instanceof NetworkError) return `The Parlance service could not be reached: ${error.message}`;
  throw error;
}

/** Runs one tool's call against the service; an API refusal becomes a tool error the agent can read and act on. */
async function call(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    // Text only: clients check any structuredContent against the tool's output schema, which describes success.
    return { isError: true, content: [{ type: 'text', text: toolErrorMessage(error) }] };
  }
}

function describeAbility(name: ToolName, text: string): string {
  return `${text} Needs the token ability '${TOOL_ABILITIES[name]}'.`;
}

/** `bat_… completed: 6 row(s): 4 translated, 2 refused`. */
function batchLine(batch: Batch): string {
  const outcomes = Object.entries(batch.rows.outcomes).map(([outcome, count]) => `${count} ${outcome}`);
  return `${batch.id} ${batch.status}: ${batch.rows.total} row(s)${outcomes.length > 0 ? `: ${outcomes.join(', ')}` : ''}`;
}

function textError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** `greet [de] in locales/en.json held: "Hallo" — placeholders: …`: what a reviewer needs to decide. */
function translationLine(row: TranslationRow): string {
  // A held row keeps the failures of both attempts (the first translation and the corrective retry); the last decided.
  const last = Math.max(1, ...row.failures.map((f) => f.attempt ?? 1));
  const failures = row.failures
    .filter((f) => (f.attempt ?? 1) === last)
    .map((f) => `${f.gate}: ${f.reason}`)
    .join('; ');
  const where = row.state === 'held' ? ' (in no file until approved)' : row.state === 'rejected' ? ' (in no file; the next push translates it again)' : '';
  return `${row.key} [${row.locale}] in ${row.path} ${row.state}${where}: ${JSON.stringify(row.text)}${failures ? ` — ${failures}` : ''}`;
}

/**
 * Every stored row of one key: the written translations, and the held and rejected candidates, which the service lists
 * only when asked for by state (they are in no file). Without the second and third, a held key read as unknown.
 */
async function rowsOfKey(client: ParlanceClient, input: { key: string; locale?: string; path?: string }): Promise<TranslationRow[]> {
  const [written, held, rejected] = await Promise.all([client.getTranslation(input), client.getTranslation({ ...input, state: 'held' }), client.getTranslation({ ...input, state: 'rejected' })]);
  return [...written, ...held, ...rejected].sort((a, b) => a.path.localeCompare(b.path) || a.locale.localeCompare(b.locale));
}

export function createMcpServer(client: ParlanceClient): McpServer {
  const server = new McpServer({ name: 'parlance', version: packageJson.version }, { instructions: 'Parlance localization service: source files, translations into target languages, batches of machine translation, quality gates with a review queue, and a glossary. Every tool acts with the abilities of the token the server was started with.' });

  server.registerTool(
    'get_project',
    {
      title: 'Get project',
      description: describeAbility('get_project', "The project this token belongs to: name, source locale, target locales and the organisation's remaining word allowance."),
      inputSchema: {},
      outputSchema: { project: z.looseObject({ id: z.string(), name: z.string(), source_locale: z.string(), target_locales: z.array(z.string()) }) },
      annotations: { readOnlyHint: true },
    },
    () =>
      call(async () => {
        const project = await client.project();
        const words = project.allowance.unlimited ? 'no word limit' : `${project.allowance.words_remaining} words left`;
        return ok(`${project.name}: ${project.source_locale} → ${project.target_locales.join(', ')}; ${words}.`, { project });
      }),
  );

  server.registerTool(
    'list_languages',
    {
      title: 'List languages',
      description: describeAbility('list_languages', "The project's source language and its target languages (the locales other tools accept)."),
      inputSchema: {},
      outputSchema: { languages: z.array(z.looseObject({ tag: z.string(), role: z.string(), name: z.string().nullable() })) },
      annotations: { readOnlyHint: true },
    },
    () =>
      call(async () => {
        const languages = await client.languages();
        return ok(languages.map((l) => `${l.tag} (${l.role})`).join(', '), { languages });
      }),
  );

  server.registerTool(
    'get_translation',
    {
      title: 'Get translations or the review queue',
      description: describeAbility(
        'get_translation',
        "One key's stored translations, in one locale or all, each with its review state and gate failures: written ones, and held candidates (refused by the gates, in no file until approved) or rejected ones. With state and no key: the review queue, e.g. every 'held' or 'flagged' row, a page at a time. Use it before editing or reviewing a translation with upsert_translation.",
      ),
      inputSchema: {
        key: z.string().min(1).optional().describe("The key, exactly as in the source file, e.g. 'checkout.title'; omit it and give state to list rows by review state."),
        locale: Locale.optional().describe('Only this locale; omit for every locale.'),
        path: Path.optional(),
        state: z
          .enum(REVIEW_STATES)
          .optional()
          .describe("Only rows in this review state. The review queue: 'held' (refused by the gates, in no file until approved) and 'flagged' (written, over its length budget). Also 'rejected', 'accepted', 'approved', 'human'."),
        limit: z.number().int().min(1).max(200).optional().describe(`With state: rows per page; default ${QUEUE_PAGE}.`),
        cursor: z.string().min(1).optional().describe('With state: the next_cursor of the previous page.'),
      },
      outputSchema: { translations: z.array(TranslationOut), next_cursor: z.string().nullable().describe('With state: pass it as cursor for the next page; null on the last page.') },
      annotations: { readOnlyHint: true },
    },
    ({ key, locale, path, state, limit, cursor }) =>
      call(async () => {
        const where = { ...(locale ? { locale } : {}), ...(path !== undefined ? { path } : {}) };
        if (state) {
          const page = await client.translationPage({ state, ...where, ...(key !== undefined ? { key } : {}), limit: limit ?? QUEUE_PAGE, ...(cursor ? { cursor } : {}) });
          const more = page.next_cursor ? `\nMore rows: call again with cursor '${page.next_cursor}'.` : '';
          const text = page.items.length > 0 ? page.items.map(translationLine).join('\n') : `No ${state} translations${key !== undefined ? ` of key '${key}'` : ''}${locale ? ` in '${locale}'` : ''}.`;
          return ok(`${text}${more}`, { translations: page.items, next_cursor: page.next_cursor });
        }
        if (key === undefined) return textError("Give key (one key's translations) or state (the rows in one review state, e.g. the held ones waiting for a reviewer).");
        if (limit !== undefined || cursor !== undefined) return textError('limit and cursor page a listing by state: give state too, or leave them out to read every row of the key.');
        const translations = await rowsOfKey(client, { key, ...where });
        if (translations.length === 0) {
          return textError(`No translation of key '${key}'${locale ? ` in '${locale}'` : ''}${path !== undefined ? ` in '${path}'` : ''}: the key is unknown, or not translated yet (its batch may still be running).`);
        }
        return ok(translations.map(translationLine).join('\n'), { translations, next_cursor: null });
      }),
  );

  server.registerTool(
    'upsert_translation',
    {
      title: 'Write or review a translation',
      description: describeAbility(
        'upsert_translation',
        "Write the translation of a key in one locale by hand, or review the stored one. Writing runs the quality gates: a broken placeholder, plural or glossary term is refused (nothing saved, the failures are listed); a length overrun is saved and flagged. Machine passes do not overwrite it until the source changes. With review and no text: 'approve' or 'reject' a row of the review queue (see get_translation).",
      ),
      inputSchema: {
        key: z.string().min(1).describe("The key, exactly as in the source file, e.g. 'checkout.title'."),
        locale: Locale,
        text: z.string().optional().describe('The translation, keeping every placeholder of the source (e.g. {name}). For a plural key send plurals instead.'),
        plurals: z.record(z.string(), z.string()).optional().describe('For a plural key: the forms by CLDR category for this locale, e.g. {"one": "…", "other": "…"}.'),
        path: Path.optional(),
        review: z
          .enum(['approve', 'reject'])
          .optional()
          .describe(
            "Decide the stored row instead of writing one: 'approve' puts a held candidate into the files (overruling the gates) or marks a flagged or machine translation approved; 'reject' takes the text out of the files, and the next push translates the key again.",
          ),
      },
      outputSchema: {
        translation: TranslationOut,
        gate_outcome: z.enum(['passed', 'flagged']).optional().describe('After a write: what the gates said.'),
        gate_failures: z.array(FailureOut).optional().describe('After a write: the failures of a flagged translation.'),
        decision: z.enum(['approve', 'reject']).optional().describe('After a review: the decision taken.'),
      },
    },
    ({ key, locale, text, plurals, path, review }) =>
      call(async () => {
        const where = { key, locale, ...(path !== undefined ? { path } : {}) };
        if (review) {
          // Approving a row while sending other text would be ambiguous: which one goes into the files?
          if (text !== undefined || plurals) return textError('Send review alone to approve or reject the stored translation, or text (or plurals) to write one; not both.');
          const reviewed = await client.review({ ...where, decision: review });
          return ok(`${review === 'approve' ? 'Approved' : 'Rejected'}: ${translationLine(reviewed.translation)}`, { translation: reviewed.translation, decision: review });
        }
        const saved = await client.putTranslation({ ...where, ...(text !== undefined ? { text } : {}), ...(plurals ? { plurals } : {}) });
        const note = saved.gate_failures.length > 0 ? ` (flagged: ${saved.gate_failures.map((f) => f.reason).join('; ')})` : '';
        return ok(`Saved ${key} [${locale}]: ${saved.gate_outcome}${note}.`, { ...saved });
      }),
  );

  server.registerTool(
    'pull_file',
    {
      title: 'Pull a translated file',
      description: describeAbility('pull_file', 'The translated file for one locale, rendered in the format of the pushed source file; says which keys were left out (held for review, or a plural the format cannot hold).'),
      inputSchema: {
        path: z.string().min(1).describe("The source file's repository path as pushed, e.g. 'locales/en.json'."),
        locale: Locale,
        format: z.enum(FORMAT_IDS).optional().describe("Render in another format, e.g. 'json' or 'po'; default: the source file's format."),
        missing: z.enum(['omit', 'source']).optional().describe("Untranslated keys: 'omit' leaves them out (default), 'source' fills in the source text."),
      },
      outputSchema: {
        path: z.string(),
        locale: z.string(),
        format: z.string(),
        encoding: z.enum(['utf-8', 'base64']).describe('base64 for binary formats (xlsx).'),
        content: z.string(),
        left_out: z.object({ count: z.number(), keys: z.array(z.string()), reasons: z.array(z.string()) }),
      },
      annotations: { readOnlyHint: true },
    },
    ({ path, locale, format, missing }) =>
      call(async () => {
        const file = await client.pull({ path, locale, ...(format ? { format } : {}), ...(missing ? { missing } : {}) });
        const binary = file.format === 'xlsx';
        const content = binary ? Buffer.from(file.body).toString('base64') : new TextDecoder().decode(file.body);
        const leftOut = file.refused.count > 0 ? `\n(${file.refused.count} key(s) left out: ${file.refused.keys.join(', ')}${file.refused.reasons.length ? `; ${file.refused.reasons.join(', ')}` : ''})` : '';
        return {
          content: [{ type: 'text', text: `${binary ? '(base64) ' : ''}${content}${leftOut}` }],
          structuredContent: { path, locale, format: file.format, encoding: binary ? 'base64' : 'utf-8', content, left_out: file.refused },
        };
      }),
  );

  server.registerTool(
    'push_file',
    {
      title: 'Push a source file',
      description: describeAbility('push_file', 'Upload a source-language file (its text). The service stores its keys and queues a batch translating only the added or changed rows; follow it with get_batch.'),
      inputSchema: {
        path: z.string().min(1).describe("The file's repository path, e.g. 'locales/en.json'; the same path updates the same file."),
        content: z.string().describe('The whole file as text, in the source language.'),
        format: z.enum(FORMAT_IDS).optional().describe("Format id such as 'json', 'json_nested', 'po', 'yaml' or 'android_xml'; detected from the path and content when omitted."),
        locales: Locales.optional(),
      },
      outputSchema: { batch: BatchOut },
    },
    ({ path, content, format, locales }) =>
      call(async () => {
        const batch = await client.pushFile({ path, content: new TextEncoder().encode(content), ...(format ? { format } : {}), ...(locales ? { locales } : {}) });
        return ok(`Batch ${batch.id} ${batch.status}: ${batch.rows.total} row(s), ${batch.words.reserved} word(s) reserved.`, { batch });
      }),
  );

  server.registerTool(
    'translate_missing',
    {
      title: 'Translate what is missing',
      description: describeAbility('translate_missing', 'Queue one batch for every key that has no current translation (missing or stale) in the given locales, e.g. after adding a language. Only those rows are charged; calling again queues nothing new.'),
      inputSchema: {
        locales: Locales.optional(),
        paths: z.array(z.string()).min(1).optional().describe('Only keys of these source files; omit for every file.'),
        retranslate_machine: z.boolean().optional().describe("Also re-translate what a machine translated and no one reviewed, e.g. after the project's model or style guide changed. A person's translations and approved ones are never queued."),
      },
      outputSchema: { batch: BatchOut },
    },
    ({ locales, paths, retranslate_machine }) =>
      call(async () => {
        const batch = await client.translateMissing({ ...(locales ? { locales } : {}), ...(paths ? { paths } : {}), ...(retranslate_machine ? { retranslate_machine } : {}) });
        return ok(`Batch ${batch.id} ${batch.status}: ${batch.rows.total} row(s) queued, ${batch.words.reserved} word(s) reserved.`, { batch });
      }),
  );

  server.registerTool(
    'get_batch',
    {
      title: 'Get batch',
      description: describeAbility(
        'get_batch',
        "A batch's status and row counts by outcome, and the rows that need a person, with key, locale and reason: refused by the quality gates (held for review, in no file until approved with upsert_translation), flagged (written, over the length budget) and failed (retry_batch re-queues them).",
      ),
      inputSchema: { id: BatchId, limit: z.number().int().min(1).max(500).optional().describe(`How many rows to list in rows and in each of refused, flagged and failed; default ${BATCH_ROWS_LISTED}.`) },
      outputSchema: {
        batch: BatchOut,
        rows: z.array(BatchRowOut).describe("The batch's first rows, whatever their outcome."),
        refused: z.object(RowGroupOut).describe('Refused by the gates after the corrective retry: held for review, in no file until approved. total counts them all.'),
        flagged: z
          .object({ ...RowGroupOut, complete: z.boolean(), rows_read: z.number() })
          .describe('Written but over the length budget. Found by reading the rows: complete is false when the batch has more rows than were read, and total counts those read.'),
        failed: z.object(RowGroupOut).describe('The provider did not answer; retry_batch re-queues them. total counts them all.'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ id, limit }) =>
      call(async () => {
        const report = await readBatchReport(client, id, limit ?? BATCH_ROWS_LISTED);
        return ok(batchReportText(report), { ...report });
      }),
  );

  server.registerTool(
    'list_batches',
    {
      title: 'List batches',
      description: describeAbility('list_batches', "The project's batches, newest first."),
      inputSchema: {
        status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']).optional().describe('Only batches in this status.'),
        limit: z.number().int().min(1).max(100).optional().describe('How many, newest first; default 20.'),
      },
      outputSchema: { batches: z.array(BatchOut) },
      annotations: { readOnlyHint: true },
    },
    ({ status, limit }) =>
      call(async () => {
        const batches = await client.batches({ limit: limit ?? 20, ...(status ? { status } : {}) });
        return ok(batches.map(batchLine).join('\n') || 'No batches.', { batches });
      }),
  );

  server.registerTool(
    'retry_batch',
    {
      title: 'Retry a failed batch',
      description: describeAbility('retry_batch', "Re-queue a failed batch's failed rows; rows already translated are not charged again."),
      inputSchema: { id: BatchId },
      outputSchema: { batch: BatchOut },
    },
    ({ id }) =>
      call(async () => {
        const batch = await client.retryBatch(id);
        return ok(`Batch ${batch.id} ${batch.status}: ${batch.rows.queued} row(s) re-queued.`, { batch });
      }),
  );

  server.registerTool(
    'cancel_batch',
    {
      title: 'Cancel a batch',
      description: describeAbility('cancel_batch', 'Cancel a queued or running batch; rows not yet written are cancelled and their words return to the allowance.'),
      inputSchema: { id: BatchId },
      outputSchema: { batch: BatchOut },
      annotations: { destructiveHint: true },
    },
    ({ id }) =>
      call(async () => {
        const batch = await client.cancelBatch(id);
        return ok(`Batch ${batch.id} ${batch.status}: ${batch.rows.cancelled} row(s) cancelled, ${batch.words.refunded} word(s) refunded.`, { batch });
      }),
  );

  server.registerTool(
    'run_qa',
    {
      title: 'Run the quality gates',
      description: describeAbility('run_qa', 'Check stored translations against the gates (placeholders, plurals, glossary, length) without changing them; lists the failures.'),
      inputSchema: {
        locales: Locales.optional(),
        keys: z.array(z.string().min(1)).min(1).optional().describe('Only these keys; omit for every key.'),
        path: z.string().optional().describe('Only keys of this source file.'),
        include_passed: z.boolean().optional().describe('Also list the translations that passed; default false.'),
      },
      outputSchema: {
        id: z.string(),
        created_at: z.string(),
        not_checked: z.array(z.looseObject({ key: z.string(), locale: z.string(), reason: z.string() })),
        checked: z.number(),
        passed: z.number(), flagged: z.number(), refused: z.number(), items: z.array(z.looseObject({ key: z.string(), locale: z.string(), outcome: z.string(), failures: z.array(FailureOut) })) },
      annotations: { readOnlyHint: true },
    },
    ({ locales, keys, path, include_passed: includePassed }) =>
      call(async () => {
        const run = await client.qaRun({ ...(locales ? { locales } : {}), ...(keys ? { keys } : {}), ...(path !== undefined ? { path } : {}), ...(includePassed ? { include_passed: true } : {}) });
        const lines = run.items.filter((i) => i.outcome !== 'passed').map((i) => `${i.key} [${i.locale}] ${i.outcome}: ${i.failures.map((f) => f.reason).join('; ')}`);
        return ok([`${run.checked} checked: ${run.passed} passed, ${run.flagged} flagged, ${run.refused} refused.`, ...lines].join('\n'), { ...run });
      }),
  );

  server.registerTool(
    'list_glossary',
    {
      title: 'List glossary',
      description: describeAbility('list_glossary', 'Every glossary term: locked terms (translations must use the given wording) and forbidden ones.'),
      inputSchema: {},
      outputSchema: { terms: z.array(TermOut) },
      annotations: { readOnlyHint: true },
    },
    () =>
      call(async () => {
        const terms = await client.glossary();
        return ok(terms.map((t) => `${t.id} ${t.term}${t.forbidden ? ' (forbidden)' : ''} ${JSON.stringify(t.translations)}`).join('\n') || 'The glossary is empty.', { terms });
      }),
  );

  server.registerTool(
    'lock_glossary_term',
    {
      title: 'Lock a glossary term',
      description: describeAbility('lock_glossary_term', 'Add a locked term: translations containing it must use the given wording per locale (or keep the term as written, e.g. a product name). Machine translations it touches are translated again on the next push.'),
      inputSchema: {
        term: z.string().min(1).max(500).describe("The source-language term, e.g. 'Dashboard'."),
        translations: TermTranslations.optional(),
        case_sensitive: z.boolean().optional().describe('Match case exactly; default false.'),
        notes: z.string().optional().describe('Why the term is locked, for translators.'),
      },
      outputSchema: { term: TermOut },
    },
    ({ term, translations, case_sensitive: caseSensitive, notes }) =>
      call(async () => {
        const saved = await client.addGlossaryTerm({ term, forbidden: false, ...(translations ? { translations } : {}), ...(caseSensitive !== undefined ? { case_sensitive: caseSensitive } : {}), ...(notes ? { notes } : {}) });
        return ok(`Locked '${saved.term}' (${saved.id}).`, { term: saved });
      }),
  );

  server.registerTool(
    'update_glossary_term',
    {
      title: 'Update a glossary term',
      description: describeAbility('update_glossary_term', 'Change a glossary term: its wording, per-locale translations, case sensitivity, forbidden flag or notes. Fields left out stay as they are.'),
      inputSchema: {
        id: TermId,
        term: z.string().min(1).max(500).optional().describe('New source-language wording of the term.'),
        translations: TermTranslations.optional().describe('Replaces the per-locale translations, e.g. {"de": "Übersicht"}.'),
        forbidden: z.boolean().optional().describe('True: neither the term nor its translation may appear in translations.'),
        case_sensitive: z.boolean().optional().describe('Match case exactly.'),
        notes: z.string().nullable().optional().describe('Notes for translators; null clears them.'),
      },
      outputSchema: { term: TermOut },
    },
    ({ id, ...changes }) =>
      call(async () => {
        const fields = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
        const saved = await client.updateGlossaryTerm(id, fields);
        return ok(`Updated '${saved.term}' (${saved.id}).`, { term: saved });
      }),
  );

  server.registerTool(
    'delete_glossary_term',
    {
      title: 'Delete a glossary term',
      description: describeAbility('delete_glossary_term', 'Remove a term from the glossary; the gates stop checking it.'),
      inputSchema: { id: TermId },
      outputSchema: { term: TermOut },
      annotations: { destructiveHint: true },
    },
    ({ id }) =>
      call(async () => {
        const removed = await client.removeGlossaryTerm(id);
        return ok(`Deleted '${removed.term}' (${removed.id}).`, { term: removed });
      }),
  );

  return server;
}
