/**
 * Operator-configured plans on a self-hosted instance: PARLANCE_PLANS (a file or inline JSON), PARLANCE_DEFAULT_PLAN,
 * `parlance admin org set-plan`, the built-in `unlimited` plan, and refusals that name the plan and the admin command.
 * The CLI binary and the service (over HTTP) share one database on the selected backend.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendEnv, dropBackend, filePush, startService, waitForBatch, type BatchBody, type TestService } from '../helpers/service.js';

const BIN = join(import.meta.dirname, '../../bin/parlance.js');
const scratch = mkdtempSync(join(tmpdir(), 'parlance-plans-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `parlance admin … --json`, which must succeed. */
function admin<T>(env: Record<string, string>, args: string[]): T {
  const result = run(['admin', ...args, '--json'], env);
  if (result.status !== 0) throw new Error(`parlance admin ${args.join(' ')} exited with ${result.status}:\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

interface Org {
  id: string;
  plan: string;
  words_remaining: number;
}
interface Problem {
  code: string;
  detail: string;
  plan?: string;
}

/** An organisation with one project and a token of all five abilities, made with the admin CLI. */
function seed(env: Record<string, string>, name: string, plan: string | undefined, targets = 'de') {
  const org = admin<Org>(env, ['org', 'create', '--name', name, ...(plan ? ['--plan', plan] : [])]);
  const project = admin<{ id: string }>(env, ['project', 'create', '--org', org.id, '--name', `${name} site`, '--source', 'en', '--targets', targets]);
  return { org, projectId: project.id };
}

function token(env: Record<string, string>, projectId: string): string {
  return admin<{ secret: string }>(env, ['token', 'create', '--project', projectId, '--abilities', 'push,pull,read,write,manage']).secret;
}

/** A JSON source file of `keys` strings of `wordsEach` distinct words. */
function sourceOfWords(keys: number, wordsEach: number): string {
  const entries: Record<string, string> = {};
  for (let k = 0; k < keys; k++) entries[`key_${k}`] = Array.from({ length: wordsEach }, (_, w) => `w${k}x${w}`).join(' ');
  return JSON.stringify(entries);
}

const TEAM_PLAN_YAML = `# An operator's own plan next to the built-in ones.
team:
  initial_words: 1000
  monthly_words: 500
  seats: 5
  locale_rows: 4
  projects: 2
  tokens: true
`;

describe('plans on a self-hosted instance: the admin CLI, then the service on the same database', () => {
  const env = backendEnv({ PARLANCE_PLANS: file('plans.yaml', TEAM_PLAN_YAML), PARLANCE_DEFAULT_PLAN: 'team' }, { migrated: true });
  let service: TestService;
  let own: ReturnType<typeof seed> & { token: string };
  let starter: ReturnType<typeof seed> & { token: string };
  let team: ReturnType<typeof seed> & { token: string };
  let upgraded: { orgId: string; token: string };

  beforeAll(async () => {
    // While the service is stopped: the CLI opens the database itself (the embedded one is one process's at a time).
    own = { ...seed(env, 'Own', 'unlimited'), token: '' };
    own.token = token(env, own.projectId);
    starter = { ...seed(env, 'Shop', 'starter'), token: '' };
    starter.token = token(env, starter.projectId);
    team = { ...seed(env, 'Team', undefined, 'de,fr,ja'), token: '' };
    team.token = token(env, team.projectId);

    // A free organisation cannot mint a token; the refusal names the command that moves it, and that command works.
    const hobby = seed(env, 'Hobby', 'free');
    const refused = run(['admin', 'token', 'create', '--project', hobby.projectId], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("Organisation 'Hobby' is on the free plan, which cannot mint API tokens.");
    expect(refused.stderr).toContain(`On this self-hosted instance an operator can run \`parlance admin org set-plan ${hobby.org.id} starter\` (or unlimited).`);
    const moved = run(['admin', 'org', 'set-plan', hobby.org.id, 'starter'], env);
    expect(moved.stderr).toBe('');
    expect(moved.status).toBe(0);
    expect(moved.stdout).toContain(`Organisation ${hobby.org.id} 'Hobby' moved from the free plan to the starter plan; 300,000 words left until`);
    upgraded = { orgId: hobby.org.id, token: token(env, hobby.projectId) };

    service = await startService({ env, memory: false });
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    await dropBackend(env);
  });

  it('creates organisations on the configured plans, PARLANCE_DEFAULT_PLAN without --plan', () => {
    expect(own.org).toMatchObject({ plan: 'unlimited' });
    expect(starter.org).toMatchObject({ plan: 'starter', words_remaining: 300_000 });
    expect(team.org).toMatchObject({ plan: 'team', words_remaining: 1000 });
  });

  it('a 320,000-word push succeeds on the unlimited plan, and is refused with 402 on Starter naming the plan and the command', async () => {
    const source = sourceOfWords(1600, 200);
    const pushed = await service.api('/v1/push', { token: own.token, method: 'POST', body: filePush(source, { format: 'json', path: 'app.json' }) });
    expect(pushed.status).toBe(202);
    const batch = (await pushed.json()) as BatchBody;
    expect(batch.words.reserved).toBe(320_000);
    const done = await waitForBatch(service, batch.id, own.token, 120_000);
    expect(done.status).toBe('completed');
    expect(done.rows.done).toBe(1600);
    const project = (await (await service.api('/v1/project', { token: own.token })).json()) as { organisation: { plan: string }; allowance: { unlimited: boolean } };
    expect(project.organisation.plan).toBe('unlimited');
    expect(project.allowance.unlimited).toBe(true);

    const refused = await service.api('/v1/push', { token: starter.token, method: 'POST', body: filePush(source, { format: 'json', path: 'app.json' }) });
    expect(refused.status).toBe(402);
    const problem = (await refused.json()) as Problem;
    expect(problem.code).toBe('allowance_exhausted');
    expect(problem.plan).toBe('starter');
    expect(problem.detail).toContain("This push needs 320000 words but organisation 'Shop' (starter plan) has 300000 left");
    expect(problem.detail).toContain(`On this self-hosted instance an operator can run \`parlance admin org set-plan ${starter.org.id} unlimited\`.`);
  });

  it('a fourth member is allowed on unlimited; on Starter the fourth seat is refused with the plans that have more', async () => {
    for (let i = 1; i <= 4; i++) {
      const invited = await service.api('/v1/invitations', { token: own.token, method: 'POST', json: { email: `person${i}@example.com`, role: 'translator' } });
      expect(invited.status).toBe(201);
    }
    const members = (await (await service.api('/v1/members', { token: own.token })).json()) as { seats: { plan: string; limit: number | null; used: number } };
    expect(members.seats).toMatchObject({ plan: 'unlimited', limit: null, used: 4 });

    for (let i = 1; i <= 3; i++) {
      expect((await service.api('/v1/invitations', { token: starter.token, method: 'POST', json: { email: `person${i}@example.com`, role: 'translator' } })).status).toBe(201);
    }
    const refused = await service.api('/v1/invitations', { token: starter.token, method: 'POST', json: { email: 'person4@example.com', role: 'translator' } });
    expect(refused.status).toBe(402);
    const problem = (await refused.json()) as Problem;
    expect(problem.code).toBe('seats_exhausted');
    expect(problem.detail).toContain('All 3 seats of the starter plan are taken (0 members, 3 pending invitations).');
    expect(problem.detail).toContain(`\`parlance admin org set-plan ${starter.org.id} unlimited\`.`);
  });

  it('after set-plan from free to starter the organisation has an API token, and mints more over HTTP', async () => {
    const project = (await (await service.api('/v1/project', { token: upgraded.token })).json()) as { organisation: { id: string; plan: string }; allowance: { words_remaining: number } };
    expect(project.organisation).toMatchObject({ id: upgraded.orgId, plan: 'starter' });
    expect(project.allowance.words_remaining).toBe(300_000);
    const minted = await service.api('/v1/tokens', { token: upgraded.token, method: 'POST', json: { name: 'CI' } });
    expect(minted.status).toBe(201);
  });

  it("a configured plan's limits apply: the team plan's 4 locale rows", async () => {
    const refused = await service.api('/v1/languages', { token: team.token, method: 'POST', json: { tag: 'it' } });
    expect(refused.status).toBe(403);
    const problem = (await refused.json()) as Problem;
    expect(problem.code).toBe('plan_locale_limit');
    expect(problem.detail).toContain('The team plan allows 4 locale rows including the source (3 target languages); this project already has 4.');
    // Starter has more locale rows but fewer seats than team: only unlimited gives more without taking anything away.
    expect(problem.detail).toContain(`\`parlance admin org set-plan ${team.org.id} unlimited\`.`);
  });
});

describe('PARLANCE_PLANS and PARLANCE_DEFAULT_PLAN are checked at start-up', () => {
  const env = backendEnv({}, { migrated: true });
  afterAll(async () => {
    await dropBackend(env);
  });

  const problems = (settings: Record<string, string>, command = ['admin', 'org', 'list']) => {
    const result = run(command, { ...env, ...settings });
    expect(result.status).toBe(1);
    return result.stderr;
  };

  it('names the file, the plan and the field', () => {
    const negative = file('negative.json', JSON.stringify({ team: { initial_words: -5, monthly_words: 500, seats: 5, locale_rows: 4, projects: 2, tokens: true } }));
    expect(problems({ PARLANCE_PLANS: negative })).toContain(
      `PARLANCE_PLANS file '${negative}': plan 'team', field 'initial_words': -5 is negative; expected a whole number of words from 0 to 1,000,000,000, or 'unlimited'`,
    );
    const unknown = file('unknown.yaml', 'starter:\n  seats: 10\n  wordz: 5\n');
    expect(problems({ PARLANCE_PLANS: unknown })).toContain(`PARLANCE_PLANS file '${unknown}': plan 'starter': unknown field 'wordz'; expected initial_words, monthly_words, seats, locale_rows, projects, tokens`);
    const missing = file('missing.json', JSON.stringify({ team: { initial_words: 5, monthly_words: 5, seats: 5, locale_rows: 4, projects: 2 } }));
    expect(problems({ PARLANCE_PLANS: missing })).toContain(`plan 'team', field 'tokens': missing; a new plan names every field`);
    const wrongType = file('wrong.yml', 'free:\n  tokens: "yes"\n  seats: 0\n');
    const both = problems({ PARLANCE_PLANS: wrongType });
    expect(both).toContain(`plan 'free', field 'tokens': "yes" is not true or false`);
    expect(both).toContain(`plan 'free', field 'seats': 0 is below 1; expected a whole number of seats, 1 or more, or 'unlimited'`);
    expect(problems({ PARLANCE_PLANS: file('name.json', '{"Gold Plan": {}}') })).toContain("plan 'Gold Plan': not a valid plan name");
  });

  it('refuses a file that is too big, unreadable or not JSON, and bad inline JSON', () => {
    const big = file('big.json', `{"team": {}, "padding": "${'x'.repeat(70_000)}"}`);
    expect(problems({ PARLANCE_PLANS: big })).toMatch(/PARLANCE_PLANS file '.*big\.json': \d+ bytes; a plans file may have at most 65536 bytes/);
    expect(problems({ PARLANCE_PLANS: join(scratch, 'absent.json') })).toContain(`PARLANCE_PLANS file '${join(scratch, 'absent.json')}': cannot read it`);
    expect(problems({ PARLANCE_PLANS: file('broken.json', '{"team": ') })).toMatch(/broken\.json': not valid JSON/);
    expect(problems({ PARLANCE_PLANS: '{"team": [' })).toContain('PARLANCE_PLANS (inline JSON): not valid JSON');
  });

  it('refuses a default plan that is not configured, and stops `parlance start` the same way', () => {
    expect(problems({ PARLANCE_DEFAULT_PLAN: 'gold' })).toContain("PARLANCE_DEFAULT_PLAN='gold': no such plan; expected one of free, starter, unlimited");
    const negative = file('start.json', '{"free": {"monthly_words": -1}}');
    expect(problems({ PARLANCE_PLANS: negative }, ['start'])).toContain(`PARLANCE_PLANS file '${negative}': plan 'free', field 'monthly_words': -1 is negative`);
  });

  it('inline JSON overrides a built-in plan field by field; --plan accepts only configured plans', () => {
    const settings = { ...env, PARLANCE_PLANS: '{"free": {"initial_words": 5000}, "gold": {"initial_words": "unlimited", "monthly_words": "unlimited", "seats": 20, "locale_rows": "unlimited", "projects": 10, "tokens": true}}' };
    expect(admin<Org>(settings, ['org', 'create', '--name', 'Small', '--plan', 'free'])).toMatchObject({ plan: 'free', words_remaining: 5000 });
    const rich = admin<Org>(settings, ['org', 'create', '--name', 'Rich', '--plan', 'gold']);
    expect(rich).toMatchObject({ plan: 'gold', words_remaining: 2_000_000_000 });
    // A downgrade does not keep the old plan's words: the period's words become the new plan's (the first month's here).
    expect(admin<Org & { previous_plan: string }>(settings, ['org', 'set-plan', rich.id, 'free'])).toMatchObject({ plan: 'free', previous_plan: 'gold', words_remaining: 5000 });
    // Without the setting, neither the override nor the plan exists.
    expect(admin<Org>(env, ['org', 'create', '--name', 'Plain'])).toMatchObject({ plan: 'free', words_remaining: 100_000 });
    const unknown = run(['admin', 'org', 'create', '--name', 'X', '--plan', 'gold'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("Invalid --plan 'gold'. Expected one of: free, starter, unlimited.");
    const setUnknown = run(['admin', 'org', 'set-plan', 'org_x', 'gold'], env);
    expect(setUnknown.status).toBe(1);
    expect(setUnknown.stderr).toContain("Unknown plan 'gold'. Expected one of: free, starter, unlimited.");
    const noOrg = run(['admin', 'org', 'set-plan', 'org_missing', 'starter'], env);
    expect(noOrg.status).toBe(1);
    expect(noOrg.stderr).toContain("No organisation 'org_missing'.");
  });
});

describe('an organisation whose plan is no longer configured, and a hosted instance', () => {
  const env = backendEnv({}, { migrated: true });
  afterAll(async () => {
    await dropBackend(env);
  });

  it('is refused with a message naming the plan and the fix, and still listed', async () => {
    const withGold = { ...env, PARLANCE_PLANS: '{"gold": {"initial_words": 900, "monthly_words": 900, "seats": 3, "locale_rows": 5, "projects": 1, "tokens": true}}' };
    const gold = seed(withGold, 'Goldie', 'gold');
    const goldToken = token(withGold, gold.projectId);

    const refused = run(['admin', 'token', 'create', '--project', gold.projectId], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `Organisation 'Goldie' is on the plan 'gold', which this instance does not configure (its plans: free, starter, unlimited). An operator can add 'gold' to PARLANCE_PLANS or run \`parlance admin org set-plan ${gold.org.id} <plan>\`.`,
    );
    expect(run(['admin', 'org', 'list'], env).stdout).toMatch(new RegExp(`${gold.org.id}\\s+gold`));

    const service = await startService({ env, memory: false });
    try {
      // Reads still work; what the plan limits is refused with the reason.
      const project = (await (await service.api('/v1/project', { token: goldToken })).json()) as { organisation: { plan: string } };
      expect(project.organisation.plan).toBe('gold');
      const push = await service.api('/v1/push', { token: goldToken, method: 'POST', body: filePush('{"a":"Hello"}', { format: 'json', path: 'app.json' }) });
      expect(push.status).toBe(409);
      expect(((await push.json()) as Problem).code).toBe('plan_not_configured');
    } finally {
      await service.runtime.stop();
    }
  }, 120_000);

  it('on a hosted instance (PARLANCE_HOSTED=true) refusals say upgrade and name no admin command', () => {
    const hosted = { ...env, PARLANCE_HOSTED: 'true' };
    const free = seed(hosted, 'Hosted', 'free');
    const refused = run(['admin', 'token', 'create', '--project', free.projectId], hosted);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("Organisation 'Hosted' is on the free plan, which cannot mint API tokens. Upgrade to Starter or above.");
    expect(refused.stderr).not.toContain('set-plan');
  });
});
