/** `parlance storage`: the project's storage targets and their status, syncing a release to one now (and following it), and its recent syncs. */
import { z } from 'zod';
import type { ParlanceClient } from '../../client/client.js';
import type { StorageSync, StorageTarget } from '../../client/types.js';
import type { CommandContext } from '../../sync/command-context.js';
import { CommandError } from '../../sync/command-error.js';
import { count } from '../../sync/output.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, parseFlags, positional, type Command } from './command.js';

const USAGE = `parlance storage list
       parlance storage sync <target id> [--release <number>] [--wait]
       parlance storage syncs <target id>`;

const Flags = z.object({
  release: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const number = Number(value);
      if (/^[1-9][0-9]*$/.test(value) && Number.isSafeInteger(number)) return number;
      ctx.addIssue({ code: 'custom', message: `Invalid --release '${value}'. Expected a release number such as 3 (numbers: parlance release list).` });
      return z.NEVER;
    }),
  wait: z.boolean().default(false),
});

/** A sync that will not change any more. */
const FINAL: ReadonlySet<StorageSync['status']> = new Set(['succeeded', 'failed', 'superseded']);
/** How long `sync --wait` follows a sync, retries included, before it gives up (as long as a batch wait). */
const WAIT_TIMEOUT_MS = 30 * 60_000;
/** Polls start quick, for the common sync of a second or two, then slow down to stay far below the rate limit. */
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 3_000;

export const storageCommand: Command = {
  name: 'storage',
  summary: 'list | sync <target id> [--wait] | syncs <target id>   (needs manage)',
  help: `Usage: ${USAGE}

Storage targets (S3-compatible buckets, Azure Blob containers) receive every release: each locale's bundle,
the files, and manifest.json last. list shows each target's bucket or container, status, last release and
last error; sync queues a sync of the latest release (or --release) now, uploading only what differs; syncs
shows a target's recent syncs with their counts.

  --release     the release number to sync (default: the latest)
  --wait        follow the sync until it ends, retries included, then print its counts and log; exit 3 when
                it failed, with the target's error on stderr

Adding, changing and removing targets, and rotating their credentials, is done in the console or with the
API (POST /v1/storage-targets, PATCH and DELETE /v1/storage-targets/<id>): credentials given on a command
line would end up in the shell's history. Every action needs a token with 'manage'.`,
  options: { release: { type: 'string' }, wait: { type: 'boolean' } },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const action = positional(positionals, 0, `Missing the storage action. Usage: ${USAGE}`);
    if (action !== 'sync' && (flags.release !== undefined || flags.wait)) throw new CommandError(`--release and --wait are options of 'parlance storage sync', not of '${action}'.`);
    switch (action) {
      case 'list': {
        noMorePositionals(positionals, 1, 'parlance storage list');
        const targets = await about('listing storage targets', () => context.client().storageTargets());
        out.document(targets);
        if (targets.length === 0) out.line('(no storage targets: add one in the console or with POST /v1/storage-targets)');
        for (const target of targets) for (const line of targetLines(target)) out.line(line);
        return 0;
      }
      case 'sync': {
        const id = positional(positionals, 1, 'Missing the storage target id. Usage: parlance storage sync <target id> [--wait] (ids: parlance storage list)');
        noMorePositionals(positionals, 2, 'parlance storage sync <target id> [--release <number>] [--wait]');
        const client = context.client();
        const queued = await about(`storage target ${id}`, () => client.syncStorageTarget(id, flags.release !== undefined ? { release: flags.release } : {}));
        if (!flags.wait) {
          out.document(queued);
          out.line(`Queued ${queued.id}: release ${queued.release} to ${id} (${queued.status}). Follow it with 'parlance storage syncs ${id}'.`);
          return 0;
        }
        out.note(`Queued ${queued.id}: release ${queued.release} to ${id}; waiting for it to end`);
        const sync = await about(`storage target ${id}`, () => followSync(context, client, queued));
        out.document(sync);
        out.line(syncSummary(sync));
        for (const line of sync.log) out.line(`  ${line.at}  ${line.message}`);
        if (sync.status === 'succeeded') return 0;
        out.problem(`parlance storage: ${id}: sync of release ${sync.release} ${sync.status}: ${sync.error ?? 'no error recorded'}`);
        return 3;
      }
      case 'syncs': {
        const id = positional(positionals, 1, 'Missing the storage target id. Usage: parlance storage syncs <target id> (ids: parlance storage list)');
        noMorePositionals(positionals, 2, 'parlance storage syncs <target id>');
        const page = await about(`storage target ${id}`, () => context.client().storageSyncs(id));
        out.document(page);
        if (page.items.length === 0) out.line(`(no syncs yet: parlance storage sync ${id})`);
        for (const sync of page.items) {
          out.line(syncLine(sync));
          if (sync.error) out.line(`    ${sync.error}`);
        }
        return 0;
      }
      default:
        throw new CommandError(`Unknown storage action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/**
 * Polls the target's syncs until `queued` ends; when a newer sync of the target supersedes it, follows that one, so
 * the answer says what the target holds now. Each change of status on the way is a note on stderr.
 */
async function followSync(context: CommandContext, client: ParlanceClient, queued: StorageSync): Promise<StorageSync> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  let sync = queued;
  let seen = `${sync.status}/${sync.attempts}`;
  let pollMs = POLL_FIRST_MS;
  for (;;) {
    if (FINAL.has(sync.status)) {
      const newer = sync.status === 'superseded' ? await newestSync(client, sync.target_id) : undefined;
      if (!newer || newer.id === sync.id) return sync;
      context.out.note(`${sync.id} was superseded by ${newer.id} (release ${newer.release}); following it`);
      sync = newer;
      seen = `${sync.status}/${sync.attempts}`;
      continue;
    }
    if (Date.now() >= deadline) {
      throw new CommandError(`${sync.id} is still ${sync.status} after ${WAIT_TIMEOUT_MS / 60_000} minutes${sync.error ? ` (last error: ${sync.error})` : ''}; follow it with 'parlance storage syncs ${sync.target_id}'.`, 3);
    }
    // A sync waiting to retry changes nothing before its next attempt.
    const retryIn = sync.status === 'pending' && sync.next_attempt_at ? Date.parse(sync.next_attempt_at) - Date.now() : 0;
    await sleep(Math.min(Math.max(pollMs, retryIn), Math.max(0, deadline - Date.now())));
    pollMs = Math.min(POLL_MAX_MS, pollMs * 2);
    sync = await findSync(client, sync);
    const now = `${sync.status}/${sync.attempts}`;
    // The end itself is not a note: the summary and the log follow it.
    if (now !== seen && !FINAL.has(sync.status)) {
      seen = now;
      context.out.note(progressNote(sync));
    }
  }
}

/** The current state of `sync`, from the target's syncs (newest first; a few pages at most when many were queued since). */
async function findSync(client: ParlanceClient, sync: StorageSync): Promise<StorageSync> {
  let cursor: string | undefined;
  do {
    const page = await client.storageSyncs(sync.target_id, { limit: 100, ...(cursor ? { cursor } : {}) });
    const found = page.items.find((item) => item.id === sync.id);
    if (found) return found;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  throw new CommandError(`${sync.id} is no longer among the syncs of ${sync.target_id} (was the target removed?).`);
}

async function newestSync(client: ParlanceClient, targetId: string): Promise<StorageSync | undefined> {
  return (await client.storageSyncs(targetId, { limit: 1 })).items[0];
}

/** `sts_… running (attempt 2)` or `sts_… attempt 1 failed: <error>; retrying at <time>`. */
function progressNote(sync: StorageSync): string {
  if (sync.status === 'pending' && sync.error) return `${sync.id} attempt ${sync.attempts} failed: ${sync.error}; retrying at ${sync.next_attempt_at ?? 'once a worker is free'}`;
  return `${sync.id} ${sync.status}${sync.attempts > 0 ? ` (attempt ${sync.attempts})` : ''}`;
}

/** The line before the log after `sync --wait`: how the sync ended, with its counts. */
function syncSummary(sync: StorageSync): string {
  const counts = `${sync.uploaded} uploaded, ${sync.unchanged} unchanged`;
  const attempts = count(sync.attempts, 'attempt');
  if (sync.status === 'succeeded') return `Synced release ${sync.release} to ${sync.target_id}: ${counts} (${sync.id}, ${attempts})`;
  return `Sync ${sync.id} of release ${sync.release} to ${sync.target_id} ${sync.status} after ${attempts}: ${counts}`;
}

/** `sts_…  release 3  succeeded  5 uploaded, 0 unchanged  api  2026-01-01T10:00:00.000Z`. */
export function syncLine(sync: StorageSync): string {
  const when = sync.status === 'pending' && sync.next_attempt_at ? `next attempt ${sync.next_attempt_at}` : (sync.finished_at ?? sync.started_at ?? sync.created_at);
  return `${sync.id}  release ${sync.release}  ${sync.status.padEnd(10)}  ${sync.uploaded} uploaded, ${sync.unchanged} unchanged  ${sync.trigger.padEnd(7)}  ${when}`;
}

/** A target's head line, then where it writes, its last release and its last error. */
export function targetLines(target: StorageTarget): string[] {
  const state = `${target.status}${target.enabled ? '' : ' (disabled)'}`;
  const last = target.last_release_number === null ? 'none yet' : `${target.last_release_number}${target.last_synced_at ? `, synced ${target.last_synced_at}` : ''}`;
  return [
    `${target.id}  ${target.name}  ${target.kind}  ${state}`,
    `  where         ${targetWhere(target)}`,
    `  credentials   ${target.credentials.hint}`,
    `  last release  ${last}`,
    ...(target.last_error ? [`  last error    ${target.last_error}`] : []),
  ];
}

/** `s3://releases/i18n/web/ at http://127.0.0.1:9000 (path style)`, `azure://releases/web/ at https://acct.blob.core.windows.net`. */
export function targetWhere(target: StorageTarget): string {
  if (target.s3) {
    const s3 = target.s3;
    return `s3://${s3.bucket}/${target.prefix}${s3.endpoint ? ` at ${s3.endpoint}` : ` in AWS ${s3.region}`}${s3.force_path_style ? ' (path style)' : ''}`;
  }
  if (target.azure_blob) {
    const azure = target.azure_blob;
    return `azure://${azure.container}/${target.prefix}${azure.account_url ? ` at ${azure.account_url}` : " in the credentials' account"}`;
  }
  return `(${target.kind})`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
