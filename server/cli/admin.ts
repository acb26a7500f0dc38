/** `parlance admin`: operators create organisations, projects and tokens in the database, or through the running service that holds the embedded one. */
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.js';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from '../db/data-dir-lock.js';
import { migrate, openDatabase, type Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import { describeWords, isConfiguredPlan, isUnlimited, planNames, planSettings, usePlanSettings } from '../services/plans.js';
import { createOrganisationService } from '../services/organisations.js';
import { ABILITIES, isAbility, type Ability } from '../services/tokens/token-fns.js';
import { createTokenService, publicToken } from '../services/tokens/token-service.js';
import { InvalidLocaleError } from '../../src/core/locales/locales.js';
import { AdminChannelError, sendAdminCommand, type AdminOutput } from './admin-channel.js';

const HELP = `Usage: parlance admin <resource> <action> [options] [--json]

  org create --name <name> [--plan <plan>]            (default: PARLANCE_DEFAULT_PLAN, else free)
  org list
  org set-plan <org id> <plan>                         (plans: free, starter, unlimited and PARLANCE_PLANS's;
                                                        the current period's words become the new plan's allowance)
  project create --org <org id> --name <name> --source <locale> [--targets de,fr,ja]
  project list [--org <org id>]
  token create --project <project id> [--name <name>] [--abilities push,pull,read]
               [--expires-in-days <n>] [--session]
               API tokens need a paid plan; --session makes a 12-hour console session token (any plan).
  token list --project <project id>
  token revoke <token id>

Abilities: ${ABILITIES.join(', ')} (default: push, pull, read — the deploy subset).
With the embedded database, a running 'parlance start' runs the command for you (through <data dir>/admin.sock).
`;

const options = {
  name: { type: 'string' },
  plan: { type: 'string' },
  org: { type: 'string' },
  source: { type: 'string' },
  targets: { type: 'string' },
  project: { type: 'string' },
  abilities: { type: 'string' },
  'expires-in-days': { type: 'string' },
  session: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

const terminal: AdminOutput = { stdout: (text) => void process.stdout.write(text), stderr: (text) => void process.stderr.write(text) };

/**
 * `parlance admin` on the command line. With the embedded database held by a running `parlance start`, the command
 * goes to that service, which runs it against its open database (admin-channel.ts); otherwise it opens the database.
 */
export async function runAdmin(argv: string[]): Promise<number> {
  const line = parseAdminLine(argv, terminal);
  if (typeof line === 'number') return line;
  const config = loadConfig();
  if (config.database.kind !== 'pglite') return runOnOwnDatabase(config, line);
  const lock = await lockOrForward(config.dataDir, argv, config.adminWaitMs);
  if (typeof lock === 'number') return lock;
  try {
    return await runOnOwnDatabase(config, line);
  } finally {
    lock.release();
  }
}

async function runOnOwnDatabase(config: Config, line: AdminLine): Promise<number> {
  usePlanSettings(config.plans);
  const db = await openDatabase(config.database);
  try {
    await migrate(db);
    return await runAdminCommand(db, line, terminal);
  } finally {
    await db.destroy();
  }
}

const HOLDER_POLL_MS = 200;

/**
 * The data directory's lock, for a command run here; or, when a running service holds it, the exit code of the
 * command that service ran. A holder without a channel is waited for a while, then named in the error.
 */
async function lockOrForward(dataDir: string, argv: string[], waitMs: number): Promise<DataDirLock | number> {
  // How long to wait for a holder without a channel (ADMIN_WAIT_SECONDS): another admin command or a migrate ends, a starting service opens it.
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    let locked: DataDirLockedError;
    try {
      return acquireDataDirLock(dataDir);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      locked = error;
    }
    try {
      const reply = await sendAdminCommand(locked.dataDir, locked.owner, argv);
      process.stdout.write(reply.stdout);
      process.stderr.write(reply.stderr);
      return reply.code;
    } catch (error) {
      if (!(error instanceof AdminChannelError)) throw error;
      if (!error.noChannel || Date.now() > deadline) {
        process.stderr.write(`parlance admin: ${error.message}\n`);
        return 1;
      }
      if (!told && Date.now() > deadline - waitMs + Math.min(3000, waitMs / 2)) {
        told = true;
        process.stderr.write(`parlance admin: waiting for process ${locked.owner}, which holds the embedded database in ${dataDir} (up to ${waitMs / 1000} s)…\n`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, HOLDER_POLL_MS));
  }
}

/** A command line from the admin channel, in the running service: parsed here too, since it came from another process. */
export async function runAdminArgv(db: Db, argv: string[], out: AdminOutput): Promise<number> {
  const line = parseAdminLine(argv, out);
  return typeof line === 'number' ? line : runAdminCommand(db, line, out);
}

type AdminLine = ReturnType<typeof parseLine>;

function parseLine(argv: string[]) {
  return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
}

/** The parsed line, or the exit code once help or a usage problem has been printed. */
function parseAdminLine(argv: string[], out: AdminOutput): AdminLine | number {
  let parsed;
  try {
    parsed = parseLine(argv);
  } catch (error) {
    out.stderr(`${(error as Error).message}\n\n${HELP}`);
    return 1;
  }
  const [resource] = parsed.positionals;
  if (parsed.values.help || !resource || resource === 'help') {
    out.stdout(HELP);
    return resource ? 0 : 1;
  }
  return parsed;
}

/** One admin command against an open, migrated database: the offline CLI's and the running service's. */
async function runAdminCommand(db: Db, line: AdminLine, out: AdminOutput): Promise<number> {
  const { values, positionals } = line;
  const [resource, action, ...args] = positionals;
  const print = (human: string, data: unknown) => out.stdout(values.json ? JSON.stringify(data, null, 2) + '\n' : human + '\n');
  const require = (name: keyof typeof values) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`Missing --${name}.`);
    return value;
  };
  try {
    const orgs = createOrganisationService({ db });
    const tokens = createTokenService({ db });
    switch (`${resource} ${action ?? ''}`.trim()) {
      case 'org create': {
        const plan = values.plan ?? planSettings().defaultPlan;
        if (!isConfiguredPlan(plan)) throw new UsageError(`Invalid --plan '${plan}'. Expected one of: ${planNames().join(', ')}.`);
        const org = await orgs.createOrganisation({ name: require('name'), plan });
        print(`Created organisation ${org.id} '${org.name}' on the ${org.plan} plan (${describeWords(org.plan, org.words_remaining)}).`, org);
        return 0;
      }
      case 'org set-plan': {
        const [id, plan] = args;
        if (!id || !plan) throw new UsageError('Missing the organisation id or the plan: parlance admin org set-plan <org id> <plan>.');
        if (!isConfiguredPlan(plan)) throw new UsageError(`Unknown plan '${plan}'. Expected one of: ${planNames().join(', ')}.`);
        const changed = await orgs.setPlan(id, plan);
        print(
          `Organisation ${changed.id} '${changed.name}' moved from the ${changed.previous_plan} plan to the ${changed.plan} plan; ${describeWords(changed.plan, changed.words_remaining, changed.period_end)}.`,
          changed,
        );
        return 0;
      }
      case 'org list': {
        const all = await orgs.listOrganisations();
        print(all.map((o) => `${o.id}  ${o.plan.padEnd(9)} ${(isUnlimited(o.plan) ? 'unlimited' : `${o.words_remaining} words`).padStart(15)}  ${o.name}`).join('\n') || '(no organisations)', all);
        return 0;
      }
      case 'project create': {
        const project = await orgs.createProject({ organisationId: require('org'), name: require('name'), sourceLocale: require('source'), targetLocales: list(values.targets) });
        print(`Created project ${project.id} '${project.name}': ${project.source_locale} → ${project.target_locales.join(', ') || '(no targets yet)'}.`, project);
        return 0;
      }
      case 'project list': {
        const all = await orgs.listProjects(values.org);
        print(all.map((p) => `${p.id}  ${p.organisation_id}  ${p.source_locale.padEnd(6)} ${p.name}`).join('\n') || '(no projects)', all);
        return 0;
      }
      case 'token create': {
        const abilities = list(values.abilities);
        const bad = abilities.filter((a) => !isAbility(a));
        if (bad.length > 0) throw new UsageError(`Unknown abilit${bad.length > 1 ? 'ies' : 'y'} ${bad.map((b) => `'${b}'`).join(', ')}. Expected: ${ABILITIES.join(', ')}.`);
        const days = values['expires-in-days'];
        const expiresDays = days === undefined ? undefined : Number(days);
        if (expiresDays !== undefined && (!Number.isInteger(expiresDays) || expiresDays < 1)) throw new UsageError(`Invalid --expires-in-days '${days}'. Expected a whole number of days, 1 or more.`);
        const session = values.session === true;
        const { token, secret } = await tokens.mint({
          projectId: require('project'),
          name: values.name ?? (session ? 'console session' : 'admin token'),
          kind: session ? 'session' : 'api',
          ...(abilities.length > 0 ? { abilities: abilities as Ability[] } : {}),
          ...(expiresDays !== undefined
            ? { expiresAt: new Date(Date.now() + expiresDays * 86_400_000) }
            : session
              ? { expiresAt: new Date(Date.now() + 12 * 3_600_000) }
              : {}),
        });
        print(`Created token ${token.id} (${token.abilities.join(', ')}). The secret is shown once:\n\n  ${secret}\n`, { ...publicToken(token), secret });
        return 0;
      }
      case 'token list': {
        const all = (await tokens.list(require('project'))).map(publicToken);
        print(
          all.map((t) => `${t.id}  ${t.prefix}…  ${t.abilities.join(',').padEnd(20)} ${t.revoked_at ? 'revoked' : t.expires_at ? `expires ${t.expires_at}` : 'no expiry'}  ${t.name}`).join('\n') || '(no tokens)',
          all,
        );
        return 0;
      }
      case 'token revoke': {
        const id = args[0];
        if (!id) throw new UsageError('Missing the token id: parlance admin token revoke <token id>.');
        const token = publicToken(await tokens.revoke(undefined, id));
        print(`Revoked token ${token.id} at ${token.revoked_at}.`, token);
        return 0;
      }
      default:
        throw new UsageError(`Unknown admin command '${[resource, action].filter(Boolean).join(' ')}'.`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`${error.message}\n\n${HELP}`);
      return 1;
    }
    if (error instanceof ApiError || error instanceof InvalidLocaleError) {
      out.stderr(`parlance admin: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

class UsageError extends Error {}
