/** `parlance integrations`: the connector catalog, and the project's connections to remote systems: connect, list, update, sync (and follow a sync), syncs, disconnect. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { ApiError, type ParlanceClient } from '../../client/client.js';
import type { CatalogConnector, ConnectInput, ConnectionPatch, IntegrationConnection, IntegrationSync } from '../../client/types.js';
import type { CommandContext } from '../../sync/command-context.js';
import { CommandError } from '../../sync/command-error.js';
import { formatSeconds } from '../../sync/output.js';
import { about } from '../../sync/subject-error.js';
import { noMorePositionals, parseFlags, positional, type Command } from './command.js';

const USAGE = `parlance integrations catalog
       parlance integrations list <connector>
       parlance integrations connect <connector> --set key=value ... [--name <name>] [--schedule <minutes>] [--no-sync]
       parlance integrations update <connector> <connection id> [--set key=value ...] [--unset key ...] [--name <name>]
                                    [--schedule <minutes> | --no-schedule] [--enable | --disable] [--rotate-secrets]
       parlance integrations sync <connector> <connection id> [--wait] [--timeout <seconds>]
       parlance integrations upload <connector> <connection id> <file> [--wait] [--timeout <seconds>]
       parlance integrations syncs <connector> <connection id>
       parlance integrations disconnect <connector> <connection id>`;

/** Credentials are read from `PARLANCE_SECRET_<FIELD>`: a command line ends up in the shell's history. */
export const SECRET_PREFIX = 'PARLANCE_SECRET_';

/** How long `sync --wait` follows a sync by default: long enough for a large batch, retries included. */
const DEFAULT_TIMEOUT_S = 30 * 60;
/** Polls start quick, for the sync of a few seconds, then slow down to stay far below the rate limit. */
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 3_000;
/** The log lines `sync --wait` prints under a failed sync: its end is what explains the failure. */
const LOG_TAIL = 10;

const FINAL: ReadonlySet<IntegrationSync['status']> = new Set(['succeeded', 'failed', 'cancelled']);

/** A whole number in a range, quoted back when it is not one. */
function wholeNumber(flag: string, min: number, max: number, expected: string) {
  return z.string().transform((value, ctx) => {
    const number = Number(value);
    if (/^[0-9]+$/.test(value) && Number.isSafeInteger(number) && number >= min && number <= max) return number;
    ctx.addIssue({ code: 'custom', message: `Invalid ${flag} '${value}'. Expected ${expected}.` });
    return z.NEVER;
  });
}

const Flags = z
  .object({
    set: z.array(z.string()).optional(),
    unset: z.array(z.string()).optional(),
    name: z.string().min(1, { message: 'expected a name such as "Marketing site"' }).optional(),
    schedule: wholeNumber('--schedule', 5, 10_080, 'the minutes between scheduled syncs, from 5 to 10080 (a week)').optional(),
    'no-schedule': z.boolean().optional(),
    enable: z.boolean().optional(),
    disable: z.boolean().optional(),
    'rotate-secrets': z.boolean().optional(),
    'no-sync': z.boolean().default(false),
    wait: z.boolean().default(false),
    timeout: wholeNumber('--timeout', 1, 7 * 24 * 3600, 'the seconds to wait, such as 600').optional(),
  })
  .superRefine((flags, ctx) => {
    for (const [one, other] of [
      ['schedule', 'no-schedule'],
      ['enable', 'disable'],
    ] as const) {
      if (flags[one] !== undefined && flags[other] !== undefined) ctx.addIssue({ code: 'custom', message: `--${one} and --${other} contradict each other: give one of them.` });
    }
  });
type Flags = z.infer<typeof Flags>;

/** The actions after `catalog`: each names a connector. */
const CONNECTION_ACTIONS: readonly string[] = ['list', 'connect', 'update', 'sync', 'upload', 'syncs', 'disconnect'];

/** Which flags belong to which action, so a flag given to another action is a usage error rather than ignored. */
const ACTION_FLAGS = {
  connect: ['set', 'name', 'schedule', 'no-sync'],
  update: ['set', 'unset', 'name', 'schedule', 'no-schedule', 'enable', 'disable', 'rotate-secrets'],
  sync: ['wait', 'timeout'],
  upload: ['wait', 'timeout'],
} as const satisfies Record<string, readonly (keyof Flags)[]>;

export const integrationsCommand: Command = {
  name: 'integrations',
  summary: 'catalog | list | connect | update | sync [--wait] | upload | syncs | disconnect   (connectors; needs manage)',
  help: `Usage: ${USAGE}

Connectors bring source strings in from code hosts, content systems, design and automation tools and, for
two-way connectors, write the translations back. catalog lists them (their ids are the <connector> of the other
actions); list shows a connector's connections with their status, last sync and last error.

connect validates the settings and credentials, stores the credentials encrypted and starts the first sync:
  --set key=value   one setting (repeat it); a value that parses as JSON is taken as JSON (--set 'types=["post"]'),
                    except for fields that are strings, else as text
  --name            the connection's name (default: the connector's)
  --schedule        also sync every <minutes> (5 to 10080; default: on demand and on change notifications)
  --no-sync         connect without starting the first sync
Credentials are never taken on the command line: each field of the connector's secrets is read from
$${SECRET_PREFIX}<FIELD> (the field's name in capitals: ${SECRET_PREFIX}MANAGEMENT_TOKEN for management_token).
connect prints the webhook URL and its secret once (even with --quiet): set them up in the remote system then.

update changes only what its flags name, from the next sync, and prints the connection as list does:
  --set key=value   a setting, as connect takes it; merged into the stored settings
  --unset key       removes a setting (back to its default)
  --name            renames the connection
  --schedule        sync every <minutes>; --no-schedule: on demand and on change notifications only
  --enable          lets a connection sync again; --disable stops its syncs and keeps its settings and credentials
  --rotate-secrets  replaces the stored credentials with those in $${SECRET_PREFIX}<FIELD>, read as connect reads them
Moving an address setting (a URL) to another host, or adding one, needs --rotate-secrets as well: the stored
credentials are never sent to a new host, so the service refuses the change without new ones (422
secrets_required). Removing one needs nothing more.

sync queues a sync now; syncs shows a connection's recent syncs with their counts.
  --wait            follow the sync to its end, then print its counts; exit 3 when it failed, with its error and the
                    end of its log
  --timeout         how long --wait follows the sync, in seconds (default ${DEFAULT_TIMEOUT_S})
upload sends the file a design connector reads (a Sketch document, a Penpot export) to the connection, replacing
the one before, and queues a sync that reads it; --wait and --timeout as for sync.
disconnect removes the connection, its credentials and its sync history; the project's keys and translations
stay, and nothing changes in the remote system. The GitHub App has its own command: parlance github.
Every action but catalog needs a token with 'manage'.`,
  options: {
    set: { type: 'string', multiple: true },
    unset: { type: 'string', multiple: true },
    name: { type: 'string' },
    schedule: { type: 'string' },
    'no-schedule': { type: 'boolean' },
    enable: { type: 'boolean' },
    disable: { type: 'boolean' },
    'rotate-secrets': { type: 'boolean' },
    'no-sync': { type: 'boolean' },
    wait: { type: 'boolean' },
    timeout: { type: 'string' },
  },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const action = positional(positionals, 0, `Missing the integrations action. Usage: ${USAGE}`);
    checkFlagsBelong(action, values);
    if (action === 'catalog') {
      noMorePositionals(positionals, 1, 'parlance integrations catalog');
      const connectors = await about('the connector catalog', () => context.client().integrationsCatalog());
      out.document(connectors);
      for (const line of catalogTable(connectors)) out.line(line);
      return 0;
    }
    if (!CONNECTION_ACTIONS.includes(action)) throw new CommandError(`Unknown integrations action '${action}'. Usage: ${USAGE}`);
    const connector = positional(positionals, 1, `Missing the connector. Usage: parlance integrations ${action} <connector>${action === 'list' || action === 'connect' ? '' : ' <connection id>'} (connectors: parlance integrations catalog)`);
    // The GitHub App's links live at /v1/integrations/github too, but in another shape and with other rules.
    if (connector === 'github') throw new CommandError("The GitHub App is linked with its own command: 'parlance github link|list|unlink'.");
    const client = context.client();

    switch (action) {
      case 'list': {
        noMorePositionals(positionals, 2, 'parlance integrations list <connector>');
        const connections = await about(`connector '${connector}'`, () => client.connections(connector));
        out.document(connections);
        if (connections.length === 0) out.line(`(no ${connector} connections: parlance integrations connect ${connector} --set key=value ...)`);
        for (const connection of connections) for (const line of connectionLines(connection)) out.line(line);
        return 0;
      }
      case 'connect': {
        noMorePositionals(positionals, 2, `parlance integrations connect ${connector} --set key=value ...`);
        return connect(context, client, connector, flags);
      }
      case 'update': {
        const connection = await update(context, client, connector, connectionId(positionals, action, connector), flags);
        out.document(connection);
        for (const line of connectionLines(connection)) out.line(line);
        return 0;
      }
      case 'sync': {
        const id = connectionId(positionals, action, connector);
        const subject = `${connector} connection ${id}`;
        const queued = await about(subject, () => client.syncConnection(connector, id));
        if (!flags.wait) {
          out.document(queued);
          out.line(`Queued ${queued.id} for ${subject} (${queued.status}). Follow it with 'parlance integrations syncs ${connector} ${id}'.`);
          return 0;
        }
        out.note(`Queued ${queued.id} for ${subject}; waiting for it to end`);
        return followToEnd(context, client, connector, id, queued, subject, flags);
      }
      case 'upload': {
        const id = positional(positionals, 2, `Missing the connection id. Usage: parlance integrations upload ${connector} <connection id> <file>`);
        const file = positional(positionals, 3, `Missing the file. Usage: parlance integrations upload ${connector} ${id} <file>`);
        noMorePositionals(positionals, 4, 'parlance integrations upload <connector> <connection id> <file>');
        let content: Uint8Array;
        try {
          content = readFileSync(file);
        } catch (error) {
          throw new CommandError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`);
        }
        const subject = `${connector} connection ${id}`;
        const uploaded = await about(subject, () => client.uploadConnectionFile(connector, id, { name: basename(file), content }));
        if (!flags.wait) {
          out.document(uploaded);
          out.line(`Uploaded ${uploaded.file.name} (${uploaded.file.size} bytes) to ${subject}; queued ${uploaded.sync.id}. Follow it with 'parlance integrations syncs ${connector} ${id}'.`);
          return 0;
        }
        out.note(`Uploaded ${uploaded.file.name} (${uploaded.file.size} bytes); waiting for sync ${uploaded.sync.id} to end`);
        return followToEnd(context, client, connector, id, uploaded.sync, subject, flags);
      }
      case 'syncs': {
        const id = connectionId(positionals, action, connector);
        const page = await about(`${connector} connection ${id}`, () => client.connectionSyncs(connector, id));
        out.document(page);
        if (page.items.length === 0) out.line(`(no syncs yet: parlance integrations sync ${connector} ${id})`);
        for (const sync of page.items) {
          out.line(syncLine(sync));
          if (sync.error) out.line(`    ${sync.error}`);
        }
        return 0;
      }
      case 'disconnect': {
        const id = connectionId(positionals, action, connector);
        const gone = await about(`${connector} connection ${id}`, () => client.disconnect(connector, id));
        out.document(gone);
        out.line(`Disconnected ${gone.id} (${gone.name}): its credentials and sync history are removed and its webhook URL no longer answers.`);
        out.line(`The project's keys and translations stay, and nothing changed in the remote system (remove its webhook there, if you set one up).`);
        return 0;
      }
      default:
        throw new CommandError(`Unknown integrations action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** Follows a sync to its end and prints its counts; 3 when it failed, with its error and the end of its log. */
async function followToEnd(context: CommandContext, client: ParlanceClient, connector: string, id: string, queued: IntegrationSync, subject: string, flags: Flags): Promise<number> {
  const { out } = context;
  const timeoutS = flags.timeout ?? DEFAULT_TIMEOUT_S;
  const sync = await about(subject, () => followSync(context, client, connector, id, queued, timeoutS * 1000));
  out.document(sync);
  out.line(syncSummary(sync, subject));
  if (sync.status === 'succeeded') return 0;
  const tail = sync.log.slice(-LOG_TAIL);
  if (tail.length < sync.log.length) out.problem(`  (the last ${tail.length} of ${sync.log.length} log lines)`);
  for (const line of tail) out.problem(`  ${line.at}  ${line.message}`);
  out.problem(`parlance integrations: ${subject}: sync ${sync.id} ${sync.status}: ${sync.error ?? 'no error recorded'}`);
  return 3;
}

function connectionId(positionals: string[], action: string, connector: string): string {
  const id = positional(positionals, 2, `Missing the connection id. Usage: parlance integrations ${action} ${connector} <connection id> (ids: parlance integrations list ${connector})`);
  noMorePositionals(positionals, 3, `parlance integrations ${action} <connector> <connection id>`);
  return id;
}

function checkFlagsBelong(action: string, values: Record<string, unknown>): void {
  const owners = Object.entries(ACTION_FLAGS) as [string, readonly (keyof Flags)[]][];
  const own: readonly string[] = owners.find(([owner]) => owner === action)?.[1] ?? [];
  for (const name of new Set(owners.flatMap(([, names]) => names))) {
    if (values[name] === undefined || own.includes(name)) continue;
    const of = owners.filter(([, names]) => names.includes(name)).map(([owner]) => `'parlance integrations ${owner}'`);
    throw new CommandError(`--${name} is an option of ${of.join(' and ')}, not of '${action}'.`);
  }
}

async function catalogEntry(client: ParlanceClient, connector: string): Promise<CatalogConnector> {
  const catalog = await about('the connector catalog', () => client.integrationsCatalog());
  const entry = catalog.find((candidate) => candidate.id === connector);
  if (!entry) throw new CommandError(`Unknown connector '${connector}'. Expected one of: ${catalog.map((c) => c.id).join(', ')}.`);
  return entry;
}

async function connect(context: CommandContext, client: ParlanceClient, connector: string, flags: Flags): Promise<number> {
  const { out } = context;
  const entry = await catalogEntry(client, connector);
  const secretFields = schemaFields(entry.secrets_schema);
  const settings = parseSettings(flags.set ?? [], entry, secretFields);
  const secrets = secretsFromEnv(entry, context.io.env);
  const input: ConnectInput = {
    settings,
    secrets,
    sync: !flags['no-sync'],
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    ...(flags.schedule !== undefined ? { schedule_minutes: flags.schedule } : {}),
  };
  const connection = await about(`connecting ${connector}`, () => client.connect(connector, input));
  out.document(connection);
  out.line(`Connected ${entry.name} as ${connection.id} (${connection.name}).`);
  // Without the head line (said above) and the webhook line (said below, with its secret).
  for (const line of connectionLines(connection).slice(1, -1)) out.line(line);
  if (connection.last_sync) out.line(`Follow the first sync with 'parlance integrations sync ${connector} ${connection.id} --wait' or 'parlance integrations syncs ${connector} ${connection.id}'.`);
  if (!out.json) {
    // Written even with --quiet: the secret cannot be read again, only replaced.
    const webhooks = entry.webhooks ? `verified with ${entry.webhooks}` : `${entry.name} sends none; syncs run on demand and on the schedule`;
    context.io.stdout.write(
      `\nChange notifications (${webhooks}):\n  webhook URL     ${connection.webhook_url}\n  webhook secret  ${connection.webhook_secret ?? '(not returned)'}\n` +
        'The webhook secret is shown only this once and is not shown again: set it up in the remote system now (a new one: PATCH webhook_secret).\n',
    );
  }
  return 0;
}

/** Sends only what the flags name; the catalog (for the settings' types and the credentials' fields) is read only when settings or credentials change. */
async function update(context: CommandContext, client: ParlanceClient, connector: string, id: string, flags: Flags): Promise<IntegrationConnection> {
  const subject = `${connector} connection ${id}`;
  if (!ACTION_FLAGS.update.some((name) => flags[name] !== undefined)) {
    throw new CommandError(`Nothing to change on ${subject}: give one or more of ${ACTION_FLAGS.update.map((name) => `--${name}`).join(', ')}.`);
  }
  const patch: ConnectionPatch = {
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    ...(flags.schedule !== undefined ? { schedule_minutes: flags.schedule } : flags['no-schedule'] ? { schedule_minutes: null } : {}),
    ...(flags.enable ? { enabled: true } : flags.disable ? { enabled: false } : {}),
  };
  const entry = flags.set || flags.unset || flags['rotate-secrets'] ? await catalogEntry(client, connector) : undefined;
  if (entry) {
    const secretFields = schemaFields(entry.secrets_schema);
    if (flags.set || flags.unset) patch.settings = { ...parseSettings(flags.set ?? [], entry, secretFields), ...removedSettings(flags.unset ?? [], flags.set ?? [], entry, secretFields) };
    if (flags['rotate-secrets']) patch.secrets = secretsFromEnv(entry, context.io.env);
  }
  return about(subject, async () => {
    try {
      return await client.updateConnection(connector, id, patch);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'secrets_required' && entry)) throw error;
      const variables = variablesText(alternatives(entry.secrets_schema).map((part) => part.required ?? [])) || `the ${SECRET_PREFIX} variables`;
      const hint = `(repeat the command with --rotate-secrets and ${variables} set)`;
      throw new ApiError(error.status, error.code, `${error.detail} ${hint}`, error.body, error.request, error.retryAfterSeconds);
    }
  });
}

/** `--unset key` into the nulls by which the service removes a setting; a key also given to --set, a credential or a field the connector lacks is a usage error. */
export function removedSettings(unsets: readonly string[], sets: readonly string[], entry: Pick<CatalogConnector, 'id' | 'settings_schema'>, secretFields: ReadonlySet<string>): Record<string, null> {
  const known = schemaFields(entry.settings_schema);
  const removed: Record<string, null> = {};
  for (const key of unsets) {
    if (secretFields.has(key)) throw new CommandError(`'${key}' is a credential of ${entry.id}: replace the credentials with --rotate-secrets and $${secretVariable(key)} instead.`);
    if (known.size > 0 && !known.has(key)) throw new CommandError(`Invalid --unset '${key}': ${entry.id} has no such setting. Expected one of: ${[...known].join(', ')}.`);
    if (sets.some((set) => set.slice(0, set.indexOf('=')).trim() === key)) throw new CommandError(`'${key}' is given to both --set and --unset: give one of them.`);
    removed[key] = null;
  }
  return removed;
}

/** The fields of an object JSON Schema, its alternatives' (anyOf/oneOf) included. */
export function schemaFields(schema: Record<string, unknown> | null): Set<string> {
  const fields = new Set<string>();
  for (const part of alternatives(schema)) for (const name of Object.keys(part.properties ?? {})) fields.add(name);
  return fields;
}

interface ObjectSchema {
  properties?: Record<string, { type?: unknown }>;
  required?: string[];
}

/** A schema's alternatives: the branches of anyOf/oneOf, else the schema itself. */
function alternatives(schema: Record<string, unknown> | null): ObjectSchema[] {
  if (!schema) return [];
  const branches = (schema.anyOf ?? schema.oneOf) as ObjectSchema[] | undefined;
  return Array.isArray(branches) ? branches : [schema as ObjectSchema];
}

/**
 * `--set key=value` into settings. A value is JSON when it parses as JSON, so lists and numbers need no other syntax,
 * except where the schema says the field is a string: `--set project=123` stays '123'.
 */
export function parseSettings(sets: readonly string[], entry: Pick<CatalogConnector, 'id' | 'settings_schema'>, secretFields: ReadonlySet<string>): Record<string, unknown> {
  const properties = (entry.settings_schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const settings: Record<string, unknown> = {};
  for (const set of sets) {
    const at = set.indexOf('=');
    const key = at > 0 ? set.slice(0, at).trim() : '';
    if (key === '') throw new CommandError(`Invalid --set '${set}'. Expected key=value, such as --set space_id=abc123.`);
    if (secretFields.has(key)) throw new CommandError(`'${key}' is a credential of ${entry.id}: set $${secretVariable(key)} instead (credentials are never taken on the command line).`);
    const raw = set.slice(at + 1);
    settings[key] = properties[key]?.type === 'string' ? raw : parseValue(raw);
  }
  return settings;
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function secretVariable(field: string): string {
  return `${SECRET_PREFIX}${field.toUpperCase()}`;
}

/** The connector's credentials from the environment; a usage error naming the variables when a required one is unset. */
export function secretsFromEnv(entry: Pick<CatalogConnector, 'id' | 'name' | 'secrets_schema'>, env: NodeJS.ProcessEnv): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const field of schemaFields(entry.secrets_schema)) {
    const value = env[secretVariable(field)];
    if (value !== undefined && value !== '') secrets[field] = value;
  }
  const options = alternatives(entry.secrets_schema).map((part) => (part.required ?? []).filter((field) => secrets[field] === undefined));
  if (options.length === 0 || options.some((missing) => missing.length === 0)) return secrets;
  throw new CommandError(`Missing credentials for ${entry.id}: set ${variablesText(options)} (credentials are read from the environment so that they stay out of your shell's history).`);
}

/** `$PARLANCE_SECRET_A`, or for alternatives `$PARLANCE_SECRET_A, or $PARLANCE_SECRET_B and $PARLANCE_SECRET_C`. */
function variablesText(options: readonly (readonly string[])[]): string {
  const names = (fields: readonly string[]) => fields.map((field) => `$${secretVariable(field)}`).join(' and ');
  return options.length === 1 ? names(options[0]!) : options.map(names).join(', or ');
}

/** `id  name  category  direction`, aligned, under a header. */
export function catalogTable(connectors: readonly CatalogConnector[]): string[] {
  const rows = [['ID', 'NAME', 'CATEGORY', 'DIRECTION'], ...connectors.map((c) => [c.id, c.name, c.category, c.direction])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
}

/** A connection's head line, then its schedule, last sync and last error. */
export function connectionLines(connection: IntegrationConnection): string[] {
  // The service already says 'disabled' as the status of a disabled connection.
  const state = connection.enabled || connection.status === 'disabled' ? connection.status : `${connection.status} (disabled)`;
  const schedule = connection.schedule_minutes === null ? 'on demand and on change notifications' : `every ${connection.schedule_minutes} min${connection.next_scheduled_at ? `, next ${connection.next_scheduled_at}` : ''}`;
  const last = connection.last_sync;
  return [
    `${connection.id}  ${connection.name}  ${state}`,
    `  schedule    ${schedule}`,
    `  last sync   ${last ? `${last.id}  ${last.status}  ${syncTime(last)}  ${countsText(last)}` : 'none yet'}`,
    ...(connection.last_error ? [`  last error  ${connection.last_error}`] : []),
    ...(connection.upload === undefined
      ? []
      : [`  file        ${connection.upload ? `${connection.upload.name} (${connection.upload.size} bytes), uploaded ${connection.upload.uploaded_at}` : `none uploaded yet (parlance integrations upload ${connection.connector} ${connection.id} <file>)`}`]),
    `  webhook     ${connection.webhook_url}`,
  ];
}

/** `4 strings: 4 added, 0 changed, 0 removed, 1 human edit, 8 written`, and what was kept or refused when there was some. */
export function countsText(sync: IntegrationSync): string {
  const c = sync.counts;
  const extra = [c.refused_edits > 0 ? `${c.refused_edits} refused edits` : '', c.kept_remote > 0 ? `${c.kept_remote} kept remote` : ''].filter(Boolean);
  return `${c.strings} strings: ${c.added} added, ${c.changed} changed, ${c.removed} removed, ${c.human_edits} human edits, ${c.written} written${extra.length > 0 ? `, ${extra.join(', ')}` : ''}`;
}

function syncTime(sync: IntegrationSync): string {
  return sync.status === 'retrying' && sync.next_attempt_at ? `next attempt ${sync.next_attempt_at}` : (sync.finished_at ?? sync.started_at ?? sync.created_at);
}

/** `syn_…  succeeded      api      2026-…Z  4 strings: 4 added, …`. */
export function syncLine(sync: IntegrationSync): string {
  return `${sync.id}  ${sync.status.padEnd(13)}  ${sync.trigger.padEnd(8)}  ${syncTime(sync)}  ${countsText(sync)}`;
}

function syncSummary(sync: IntegrationSync, subject: string): string {
  const attempts = `${sync.attempts} attempt${sync.attempts === 1 ? '' : 's'}`;
  return `Sync ${sync.id} of ${subject} ${sync.status} after ${attempts}: ${countsText(sync)}${sync.batch_id ? ` (batch ${sync.batch_id})` : ''}`;
}

/** Polls the sync until it is final; each change of status on the way is a note on stderr. */
async function followSync(context: CommandContext, client: ParlanceClient, connector: string, id: string, queued: IntegrationSync, timeoutMs: number): Promise<IntegrationSync> {
  const deadline = Date.now() + timeoutMs;
  let sync = queued;
  let seen = `${sync.status}/${sync.attempts}`;
  let pollMs = POLL_FIRST_MS;
  while (!FINAL.has(sync.status)) {
    if (Date.now() >= deadline) {
      throw new CommandError(
        `${sync.id} is still ${sync.status} after ${formatSeconds(timeoutMs)}${sync.error ? ` (last error: ${sync.error})` : ''}; it goes on in the service: follow it with 'parlance integrations syncs ${connector} ${id}'.`,
        3,
      );
    }
    await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
    pollMs = Math.min(POLL_MAX_MS, pollMs * 2);
    sync = await client.connectionSync(connector, id, sync.id);
    const now = `${sync.status}/${sync.attempts}`;
    // The end itself is not a note: the summary follows it.
    if (now !== seen && !FINAL.has(sync.status)) {
      seen = now;
      context.out.note(sync.status === 'retrying' && sync.error ? `${sync.id} attempt ${sync.attempts} failed: ${sync.error}; retrying at ${sync.next_attempt_at ?? 'once a worker is free'}` : `${sync.id} ${sync.status}${sync.attempts > 0 ? ` (attempt ${sync.attempts})` : ''}`);
    }
  }
  return sync;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
