/** The MCP server: 16 tools over the typed /v1 client, so an agent has exactly the powers of the token behind that client. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { ApiError, NetworkError, type ParlanceClient } from '../client/client.js';
import type { GateFailure } from '../client/types.js';

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
const BatchOut = z.looseObject({
  id: z.string(),
  status: z.string(),
  path: z.string().nullable(),
  rows: z.looseObject({ total: z.number(), queued: z.number(), done: z.number(), failed: z.number(), cancelled: z.number() }),
  words: z.looseObject({ reserved: z.number(), spent: z.number(), refunded: z.number() }),
  error: z.string().nullable(),
});
const BatchRowOut = z.looseObject({ key: z.string(), locale: z.string(), status: z.string(), outcome: z.string(), reason: z.string().nullable() });
const TranslationOut = z.looseObject({ key: z.string(), path: z.string(), locale: z.string(), state: z.string(), source: z.string(), text: z.string() });
const TermOut = z.looseObject({ id: z.string(), term: z.string(), translations: z.record(z.string(), z.string()), forbidden: z.boolean(), case_sensitive: z.boolean() });
const FailureOut = z.looseObject({ gate: z.string(), reason: z.string() });

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

export function createMcpServer(client: ParlanceClient): McpServer {
  const server = new McpServer({ name: 'parlance', version: packageJson.version }, { instructions: 'Parlance localization service: source files, translations into target languages, batches of machine translation, quality gates and a glossary. Every tool acts with the abilities of the token the server was started with.' });

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
        return ok(`${project.name}: ${project.source_locale} → ${project.target_locales.join(', ')}; ${project.allowance.words_remaining} words left.`, { project });
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
      title: 'Get translation',
      description: describeAbility('get_translation', 'The written translations of one key (text, review state, gate failures), in one locale or all. Use it before editing a translation with upsert_translation.'),
      inputSchema: { key: z.string().min(1).describe("The key, exactly as in the source file, e.g. 'checkout.title'."), locale: Locale.optional().describe('Only this locale; omit for every locale.'), path: Path.optional() },
      outputSchema: { translations: z.array(TranslationOut) },
      annotations: { readOnlyHint: true },
    },
    ({ key, locale, path }) =>
      call(async () => {
        const translations = await client.getTranslation({ key, ...(locale ? { locale } : {}), ...(path !== undefined ? { path } : {}) });
        if (translations.length === 0) {
          return { isError: true, content: [{ type: 'text', text: `No translation of key '${key}'${locale ? ` in '${locale}'` : ''}${path !== undefined ? ` in '${path}'` : ''}: the key is unknown or not translated yet.` }] };
        }
        return ok(translations.map((t) => `${t.locale} [${t.state}]: ${t.text}`).join('\n'), { translations });
      }),
  );

  server.registerTool(
    'upsert_translation',
    {
      title: 'Write a translation',
      description: describeAbility(
        'upsert_translation',
        'Write the translation of a key in one locale by hand. It runs the quality gates: a broken placeholder, plural or glossary term is refused (nothing saved, the failures are listed); a length overrun is saved and flagged. Machine passes do not overwrite it until the source changes.',
      ),
      inputSchema: {
        key: z.string().min(1).describe("The key, exactly as in the source file, e.g. 'checkout.title'."),
        locale: Locale,
        text: z.string().optional().describe('The translation, keeping every placeholder of the source (e.g. {name}). For a plural key send plurals instead.'),
        plurals: z.record(z.string(), z.string()).optional().describe('For a plural key: the forms by CLDR category for this locale, e.g. {"one": "…", "other": "…"}.'),
        path: Path.optional(),
      },
      outputSchema: { translation: TranslationOut, gate_outcome: z.string(), gate_failures: z.array(FailureOut) },
    },
    ({ key, locale, text, plurals, path }) =>
      call(async () => {
        const saved = await client.putTranslation({ key, locale, ...(text !== undefined ? { text } : {}), ...(plurals ? { plurals } : {}), ...(path !== undefined ? { path } : {}) });
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
        format: z.string().optional().describe("Render in another format, e.g. 'json' or 'po'; default: the source file's format."),
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
        format: z.string().optional().describe("Format id such as 'json', 'po', 'yaml', 'android-xml'; detected from the path and content when omitted."),
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
      inputSchema: { locales: Locales.optional(), paths: z.array(z.string()).min(1).optional().describe('Only keys of these source files; omit for every file.') },
      outputSchema: { batch: BatchOut },
    },
    ({ locales, paths }) =>
      call(async () => {
        const batch = await client.translateMissing({ ...(locales ? { locales } : {}), ...(paths ? { paths } : {}) });
        return ok(`Batch ${batch.id} ${batch.status}: ${batch.rows.total} row(s) queued, ${batch.words.reserved} word(s) reserved.`, { batch });
      }),
  );

  server.registerTool(
    'get_batch',
    {
      title: 'Get batch',
      description: describeAbility('get_batch', "A batch's status and counts, with its rows' outcomes (first 500); failed rows say why."),
      inputSchema: { id: BatchId },
      outputSchema: { batch: BatchOut, rows: z.array(BatchRowOut) },
      annotations: { readOnlyHint: true },
    },
    ({ id }) =>
      call(async () => {
        const { row_outcomes: rowOutcomes, ...batch } = await client.batch(id);
        return ok(`Batch ${batch.id} ${batch.status}: ${batch.rows.done}/${batch.rows.total} done, ${batch.rows.failed} failed.`, { batch, rows: rowOutcomes.items });
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
        return ok(batches.map((b) => `${b.id} ${b.status} ${b.rows.done}/${b.rows.total}`).join('\n') || 'No batches.', { batches });
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
