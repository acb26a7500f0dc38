/** `parlance admin`: operators create organisations, projects and tokens directly in the database. */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { acquireDataDirLock } from '../db/data-dir-lock.js';
import { migrate, openDatabase } from '../db/database.js';
import { ApiError } from '../errors.js';
import { PLAN_NAMES } from '../services/plans.js';
import { createOrganisationService } from '../services/organisations.js';
import { ABILITIES, isAbility, type Ability } from '../services/tokens/token-fns.js';
import { createTokenService, publicToken } from '../services/tokens/token-service.js';
import { InvalidLocaleError } from '../../src/core/locales/locales.js';

const HELP = `Usage: parlance admin <resource> <action> [options] [--json]

  org create --name <name> [--plan free|starter]      (default plan: starter)
  org list
  project create --org <org id> --name <name> --source <locale> [--targets de,fr,ja]
  project list [--org <org id>]
  token create --project <project id> [--name <name>] [--abilities push,pull,read]
               [--expires-in-days <n>] [--session]
               API tokens need a paid plan; --session makes a 12-hour console session token (any plan).
  token list --project <project id>
  token revoke <token id>

Abilities: ${ABILITIES.join(', ')} (default: push, pull, read — the deploy subset).
With the embedded database, stop 'parlance start' first: one process at a time may open it.
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

export async function runAdmin(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`);
    return 1;
  }
  const { values, positionals } = parsed;
  const [resource, action, ...args] = positionals;
  if (values.help || !resource || resource === 'help') {
    process.stdout.write(HELP);
    return resource ? 0 : 1;
  }

  const config = loadConfig();
  const lock = config.database.kind === 'pglite' ? acquireDataDirLock(config.dataDir) : undefined;
  const db = await openDatabase(config.database);
  const print = (human: string, data: unknown) => process.stdout.write(values.json ? JSON.stringify(data, null, 2) + '\n' : human + '\n');
  const require = (name: keyof typeof values) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`Missing --${name}.`);
    return value;
  };
  try {
    await migrate(db);
    const orgs = createOrganisationService({ db });
    const tokens = createTokenService({ db });
    switch (`${resource} ${action ?? ''}`.trim()) {
      case 'org create': {
        const plan = z.enum(PLAN_NAMES as [string, ...string[]]).safeParse(values.plan ?? 'starter');
        if (!plan.success) throw new UsageError(`Invalid --plan '${values.plan}'. Expected one of: ${PLAN_NAMES.join(', ')}.`);
        const org = await orgs.createOrganisation({ name: require('name'), plan: plan.data as 'free' | 'starter' });
        print(`Created organisation ${org.id} '${org.name}' on the ${org.plan} plan (${org.words_remaining} words).`, org);
        return 0;
      }
      case 'org list': {
        const all = await orgs.listOrganisations();
        print(all.map((o) => `${o.id}  ${o.plan.padEnd(8)} ${String(o.words_remaining).padStart(8)} words  ${o.name}`).join('\n') || '(no organisations)', all);
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
      process.stderr.write(`${error.message}\n\n${HELP}`);
      return 1;
    }
    if (error instanceof ApiError || error instanceof InvalidLocaleError) {
      process.stderr.write(`parlance admin: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.destroy();
    lock?.release();
  }
}

class UsageError extends Error {}
