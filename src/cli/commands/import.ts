/** `parlance import <platform>`: brings a project across from another platform, by its API or its export, and follows the import with a progress bar. */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import type { ImportJob, ImportPlatform } from '../../client/types.js';
import { CommandError } from '../../sync/command-error.js';
import { progressBar } from '../../sync/output.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, oneOf, parseFlags, positional, type Command } from './command.js';

const PLATFORMS = ['crowdin', 'lokalise', 'phrase', 'transifex', 'tolgee', 'poeditor'] as const satisfies readonly ImportPlatform[];

/** Where each platform's token is read from: never from the command line, which ends up in the shell's history. */
export const TOKEN_VARIABLES: Record<ImportPlatform, string> = {
  crowdin: 'CROWDIN_TOKEN',
  lokalise: 'LOKALISE_TOKEN',
  phrase: 'PHRASE_TOKEN',
  transifex: 'TRANSIFEX_TOKEN',
  tolgee: 'TOLGEE_API_KEY',
  poeditor: 'POEDITOR_TOKEN',
};

const USAGE = `parlance import <platform> --project <id> [--base-url <url>]      (token from the environment)
       parlance import <platform> --archive <file>
       parlance import status [<import id>] | cancel <import id>`;

const Flags = z.object({
  project: z.string().min(1).optional(),
  archive: z.string().min(1).optional(),
  'base-url': z.url({ message: "expected an http(s) URL such as 'https://tolgee.example.com'" }).optional(),
  'hold-unreviewed': z.boolean().default(false),
  overwrite: z.boolean().default(false),
  'dry-run': z.boolean().default(false),
  'no-wait': z.boolean().default(false),
});

const FINAL: ReadonlySet<ImportJob['status']> = new Set(['completed', 'failed', 'cancelled']);
const POLL_MS = 500;
/** An import of a large project waits on the platform's rate limits: it may take a while, but not forever. */
const WAIT_TIMEOUT_MS = 6 * 60 * 60_000;

export const importCommand: Command = {
  name: 'import',
  summary: '<platform> --project <id> | --archive <file>   (crowdin, lokalise, phrase, transifex, tolgee, poeditor)',
  help: `Usage: ${USAGE}

Brings keys, translations (with their review state), locales, translation memory and the glossary across from
another platform, through its API or from its export. It never charges words, and running the same import
again changes nothing that did not change on the platform. Needs a token with 'manage'.

Platforms and where their token is read from:
${PLATFORMS.map((p) => `  ${p.padEnd(10)} $${TOKEN_VARIABLES[p]}`).join('\n')}

  --project          the platform's project id (Transifex: o:<organization>:p:<project>)
  --base-url         another API address (a self-hosted Tolgee, an enterprise Crowdin domain)
  --archive          the platform's export instead of its API (zip, TMX, ...); no token needed
  --hold-unreviewed  hold translations not reviewed on the platform for review instead of accepting them
  --overwrite        let the platform's translations replace ones a person wrote or approved in Parlance
  --dry-run          read everything and report what would change, writing nothing
  --no-wait          queue the import and return; follow it with 'parlance import status <id>'

'parlance import status' lists recent imports; with an id it shows that import's report. The import goes on
in the service if this command stops; it resumes by itself after a restart of the service.`,
  options: {
    project: { type: 'string' },
    archive: { type: 'string' },
    'base-url': { type: 'string' },
    'hold-unreviewed': { type: 'boolean' },
    overwrite: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    'no-wait': { type: 'boolean' },
  },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const first = positional(positionals, 0, `Missing the platform. Usage: ${USAGE}`);
    const client = context.client();

    if (first === 'status') {
      const id = positionals[1];
      noMorePositionals(positionals, 2, 'parlance import status [<import id>]');
      if (id === undefined) {
        const page = await about('listing imports', () => client.imports({ limit: 20 }));
        out.document(page);
        if (page.items.length === 0) out.line('(no imports yet)');
        for (const job of page.items) out.line(`${job.id}  ${job.platform.padEnd(9)} ${job.source.padEnd(7)} ${job.status.padEnd(9)} ${job.created_at}${job.error ? `  ${job.error}` : ''}`);
        return 0;
      }
      const job = await about(`import ${id}`, () => client.importJob(id));
      out.document(job);
      for (const line of reportLines(job)) out.line(line);
      return job.status === 'failed' ? 3 : 0;
    }
    if (first === 'cancel') {
      const id = positional(positionals, 1, 'Missing the import id. Usage: parlance import cancel <import id>');
      noMorePositionals(positionals, 2, 'parlance import cancel <import id>');
      const job = await about(`import ${id}`, () => client.cancelImport(id));
      out.document(job);
      out.line(`Cancelled ${job.id}; what it wrote so far stays.`);
      return 0;
    }

    const platform = parseFlags(z.object({ platform: oneOf('platform', PLATFORMS) }), { platform: first }).platform;
    noMorePositionals(positionals, 1, USAGE);
    const options = { conflict: flags.overwrite ? ('overwrite' as const) : ('keep_human' as const), unreviewed: flags['hold-unreviewed'] ? ('hold' as const) : ('accept' as const), dry_run: flags['dry-run'] };
    let job: ImportJob;
    if (flags.archive !== undefined) {
      if (flags.project !== undefined) throw new CommandError('Give either --project (an import through the API) or --archive (an import from an export), not both.');
      const path = resolve(context.io.cwd, flags.archive);
      let content: Uint8Array;
      try {
        content = readFileSync(path);
      } catch (error) {
        throw new CommandError(`Cannot read --archive '${flags.archive}': ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`);
      }
      job = await about(`importing ${flags.archive}`, () => client.importFromArchive({ platform, content, name: basename(path), options }));
    } else {
      if (flags.project === undefined) throw new CommandError(`Missing --project (the ${platform} project id) or --archive (its export). Usage: ${USAGE}`);
      const variable = TOKEN_VARIABLES[platform];
      const token = context.io.env[variable];
      if (!token) throw new CommandError(`Set $${variable} to your ${platform} API token (it is read from the environment so that it stays out of your shell's history), or import an export with --archive.`);
      job = await about(`importing ${platform} project ${flags.project}`, () =>
        client.importFromApi({ platform, api: { token, project: flags.project!, ...(flags['base-url'] ? { base_url: flags['base-url'] } : {}) }, options }),
      );
    }
    if (flags['no-wait']) {
      out.document(job);
      out.line(`Queued ${job.id}. Follow it with 'parlance import status ${job.id}'.`);
      return 0;
    }
    out.note(`Importing from ${platform} (${job.id})`);
    const deadline = Date.now() + WAIT_TIMEOUT_MS;
    let last = '';
    while (!FINAL.has(job.status)) {
      if (Date.now() > deadline) throw new CommandError(`Import ${job.id} is still ${job.status} after ${WAIT_TIMEOUT_MS / 3_600_000} hours; it goes on in the service: 'parlance import status ${job.id}'.`, 3);
      await new Promise((r) => setTimeout(r, POLL_MS));
      const id = job.id;
      job = await about(`import ${id}`, () => client.importJob(id));
      const line = progressText(job);
      if (line !== last) {
        if (context.io.isTTY) context.io.stderr.write(`\r${line.padEnd(100)}`);
        else out.note(line);
        last = line;
      }
    }
    if (context.io.isTTY && last) context.io.stderr.write('\n');
    out.document(job);
    for (const line of reportLines(job)) out.line(line);
    if (job.status === 'failed') {
      out.problem(`parlance import: ${job.platform}: ${job.error ?? 'the import failed'}`);
      return 3;
    }
    return 0;
  },
};

function progressText(job: ImportJob): string {
  const { message = job.status, done, total } = job.progress;
  return done !== undefined && total !== undefined && total > 0 ? `${job.status.padEnd(9)} ${progressBar(done, total)} ${message}` : `${job.status.padEnd(9)} ${message}`;
}

/** The report, as a person reads it: what came across per locale, what needed mapping, what a gate failed. */
export function reportLines(job: ImportJob): string[] {
  const r = job.report;
  const lines = [`${job.id}: ${job.platform} ${job.source === 'api' ? 'API' : `export ${job.archive_name ?? ''}`}, ${job.status}${job.options.dry_run ? ' (dry run: nothing was written)' : ''}`];
  lines.push(`  keys          ${r.keys.added} added, ${r.keys.updated} updated, ${r.keys.unchanged} unchanged`);
  for (const [locale, t] of Object.entries(r.locales)) {
    lines.push(
      `  ${locale.padEnd(13)} ${t.keys} keys, ${t.translations ?? 0} translations (${t.human} reviewed (human), ${t.machine} machine, ${t.held} held, ${t.flagged} flagged), ${t.kept} kept, ${t.memory} memory units, ${t.glossary ?? 0} glossary terms`,
    );
  }
  if (Object.keys(r.locale_mappings).length > 0) lines.push(`  locales       ${Object.entries(r.locale_mappings).map(([from, to]) => `${from} → ${to}`).join(', ')}`);
  if (r.languages_added.length > 0) lines.push(`  languages     added ${r.languages_added.join(', ')}`);
  if (r.locales_refused?.length) lines.push(`  languages     left out ${r.locales_refused.join(', ')} (see the warnings)`);
  lines.push(`  memory        ${r.memory_units} units; glossary ${r.glossary_terms.added} terms added, ${r.glossary_terms.updated} updated`);
  if (r.gate_failures_count > 0) {
    lines.push(`  gates         ${r.gate_failures_count} failure(s), imported all the same (reviewed ones as human translations, the others flagged or held for review):`);
    for (const f of r.gate_failures.slice(0, 10)) lines.push(`    ${f.locale} ${f.key}${f.path ? ` (${f.path})` : ''}: ${f.gate}: ${f.reason}${f.state ? ` [${f.state}]` : ''}`);
  }
  if (r.warnings_count > 0) {
    lines.push(`  warnings      ${r.warnings_count}:`);
    for (const w of r.warnings.slice(0, 10)) lines.push(`    ${w.message}${w.ref ? ` (${w.ref})` : ''}`);
  }
  if (r.refused_paths_count) {
    lines.push(`  skipped       ${r.refused_paths_count} file(s) whose path is not a relative path inside the repository:`);
    for (const p of (r.refused_paths ?? []).slice(0, 10)) lines.push(`    ${p.message}`);
  }
  if (job.error) lines.push(`  error         ${job.error}`);
  return lines;
}
