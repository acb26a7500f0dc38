/**
 * The soak: PostgreSQL (a schema of its own) and a redis-server of its own, 4 API and 4 worker processes, clients
 * pushing, pulling, cancelling, retrying, editing and reviewing while faults are injected; then a drain and the
 * invariants, printed as a table. Exit code 1 when any invariant fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, openDatabase } from '../server/db/database.js';
import { createOrganisationService } from '../server/services/organisations.js';
import { createTokenService } from '../server/services/tokens/token-service.js';
import { createFaults, FAULT_KINDS } from './faults.js';
import { createFleet, freePort, sleep, type Member } from './fleet.js';
import { batchChecks, deliveryChecks, rateLimitChecks, type Check } from './invariants.js';
import { startLlmMock } from './llm-mock.js';
import { createApi, runLoad, type LoadState, type SoakProject } from './load.js';
import { soakOptions } from './options.js';
import { seededRandom } from './random.js';
import { startReceiver } from './receiver.js';
import { createRecorder } from './recorder.js';

const API_PROCESSES = 4;
const WORKER_PROCESSES = 4;
const RATE_LIMIT = 60;
const WEBHOOK_TIMEOUT_MS = 2000;
const APP_PREFIX = 'parlance-soak-';
const LOCALES = ['de', 'fr', 'ja'];

function table(title: string, rows: [string, string][]): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return [`\n${title}`, ...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`)].join('\n');
}

/** Organisations, projects and tokens, written with the service's own functions before any process starts. */
async function seed(databaseUrl: string, schema: string): Promise<{ projects: SoakProject[]; hammerToken: string }> {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', 'soak-seed');
  const db = await openDatabase({ kind: 'postgres', url: url.toString(), schema });
  try {
    await migrate(db);
    const organisations = createOrganisationService({ db });
    const tokens = createTokenService({ db });
    const projects: SoakProject[] = [];
    for (const orgName of ['Acme', 'Globex']) {
      const org = await organisations.createOrganisation({ name: orgName, plan: 'starter' });
      for (const projectName of ['web', 'app']) {
        const project = await organisations.createProject({ organisationId: org.id, name: `${orgName}-${projectName}`, sourceLocale: 'en', targetLocales: LOCALES });
        const editor = await tokens.mint({ projectId: project.id, name: 'soak editor', abilities: ['push', 'pull', 'read', 'write', 'manage'] });
        const reader = await tokens.mint({ projectId: project.id, name: 'soak reader', abilities: ['pull', 'read'] });
        projects.push({ id: project.id, name: `${orgName}-${projectName}`, tokens: { editor: editor.secret, reader: reader.secret }, locales: LOCALES });
      }
    }
    const hammer = await tokens.mint({ projectId: projects[0]!.id, name: 'soak hammer', abilities: ['pull', 'read'] });
    return { projects, hammerToken: hammer.secret };
  } finally {
    await db.destroy();
  }
}

export async function main(): Promise<number> {
  const options = soakOptions();
  const random = seededRandom(options.seed);
  const id = randomBytes(3).toString('hex');
  const schema = `soak_${id}`;
  const logDir = mkdtempSync(join(tmpdir(), 'parlance-soak-'));
  console.log(`soak: ${options.seconds} s, seed ${options.seed}, schema ${schema}, logs in ${logDir}`);

  const llm = await startLlmMock({ delayMs: 30 });
  const receiver = await startReceiver({ port: await freePort(), senderTimeoutMs: WEBHOOK_TIMEOUT_MS });
  let redisPort = 0;
  const serviceEnv = (member: Member): Record<string, string> => ({
    DATABASE_URL: options.databaseUrl,
    DATABASE_SCHEMA: schema,
    // node-postgres names its connections after PGAPPNAME: the fault then terminates the service's and nobody else's.
    PGAPPNAME: `${APP_PREFIX}${member.name}`,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    REDIS_PREFIX: `soak-${id}`,
    PARLANCE_HOST: '127.0.0.1',
    PORT: String(member.port ?? 0),
    PARLANCE_DATA_DIR: join(logDir, 'data'),
    PARLANCE_DEMO: 'false',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    TRANSLATION_PROVIDER: 'openai',
    OPENAI_BASE_URL: llm.url,
    OPENAI_API_KEY: 'sk-soak',
    PROVIDER_TIMEOUT_MS: '5000',
    PROVIDER_MAX_RETRIES: '2',
    WORKER_CONCURRENCY: '2',
    BATCH_CHUNK_ROWS: '20',
    LEASE_SECONDS: '5',
    SWEEP_INTERVAL_MS: '1000',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_POLL_MS: '300',
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    WEBHOOK_CONCURRENCY: '2',
    // About 100 s of retries: longer than any receiver fault, so a delivery outlives it.
    WEBHOOK_RETRY_DELAYS: '500ms,1s,2s,3s,5s,5s,5s,5s,10s,10s,10s,10s,10s,10s,10s',
  });
  const fleet = createFleet({ logDir, serviceEnv });
  const admin = new pg.Client({ connectionString: options.databaseUrl, application_name: 'soak-admin', options: `-c search_path=${schema}` });
  const recorder = createRecorder();
  const state: LoadState = { retried: new Set(), pushes: { new: 0, changed: 0, unchanged: 0 }, clientFailures: [] };
  let failed = true;
  let supervisor: NodeJS.Timeout | undefined;

  try {
    const redis = await fleet.add('redis', 'redis');
    redisPort = redis.port!;
    await fleet.start(redis);
    const { projects, hammerToken } = await seed(options.databaseUrl, schema);
    await admin.connect();

    for (let i = 1; i <= API_PROCESSES; i++) await fleet.add(`serve-${i}`, 'serve');
    for (let i = 1; i <= WORKER_PROCESSES; i++) await fleet.add(`worker-${i}`, 'worker');
    const t0 = Date.now();
    await Promise.all(fleet.members.filter((m) => m.role !== 'redis').map((m) => fleet.start(m)));
    console.log(`soak: ${API_PROCESSES} API and ${WORKER_PROCESSES} worker processes up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // A process that died on its own is counted (fleet.crashes) and started again, as a supervisor would.
    supervisor = setInterval(() => {
      for (const m of fleet.members) if (!m.proc && !m.expectingExit && m.starts > 0) void fleet.start(m).catch(() => undefined);
    }, 2000);

    const ports = fleet.members.filter((m) => m.role === 'serve').map((m) => m.port!);
    const api = createApi({ ports: () => ports, recorder });
    for (const project of projects) {
      const res = await api('setup', { label: `${project.name}/editor`, secret: project.tokens.editor }, '/v1/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url(project.id), events: [] }),
      });
      if (res?.status !== 201) throw new Error(`POST /v1/webhooks: ${res?.status} ${await res?.text()}`);
      receiver.secrets.set(project.id, ((await res.json()) as { secret: string }).secret);
    }

    const faults = createFaults({ fleet, receiver, llm, random: random.fork(), admin, databaseName: options.databaseName, appPrefix: APP_PREFIX });
    const end = Date.now() + options.seconds * 1000;
    const stop = () => Date.now() >= end;
    const warmUp = Math.min(10_000, options.seconds * 100);
    console.log(`soak: load for ${options.seconds} s, faults from ${warmUp / 1000} s on`);
    await Promise.all([
      runLoad({ projects, hammerToken, api, random: random.fork(), state, stop }),
      sleep(warmUp).then(() => faults.run({ stop, minGapMs: 3000, maxGapMs: 8000 })),
    ]);

    // The drain: faults are off; every process runs; open batches finish and due deliveries go out.
    await fleet.reviveAll();
    const drainStart = Date.now();
    let open = { batches: 0, deliveries: 0 };
    while (Date.now() - drainStart < options.drainSeconds * 1000) {
      const now = (await admin.query<{ batches: string; deliveries: string }>(
        `select (select count(*) from batches where status in ('queued', 'running')) as batches, (select count(*) from webhook_deliveries where status = 'pending') as deliveries`,
      )).rows[0]!;
      open = { batches: Number(now.batches), deliveries: Number(now.deliveries) };
      if (open.batches === 0 && open.deliveries === 0) break;
      await sleep(1000);
    }
    const drainSeconds = (Date.now() - drainStart) / 1000;
    clearInterval(supervisor);

    const checks: Check[] = [
      ...(await batchChecks(admin, state.retried)),
      ...(await deliveryChecks(admin, receiver)).checks,
      ...rateLimitChecks(recorder.windows, RATE_LIMIT, faults.redisRestarts),
      { name: 'requests answered 5xx (other than 503 rate_limiter_unavailable / database_unavailable)', figure: String(recorder.unexpected.length), ok: recorder.unexpected.length === 0, detail: JSON.stringify(recorder.unexpected.slice(0, 5)) },
      { name: "failures inside the soak's own clients", figure: String(state.clientFailures.length), ok: state.clientFailures.length === 0, detail: state.clientFailures.slice(0, 5).join('\n') },
      { name: 'processes that died on their own', figure: String(fleet.crashes.length), ok: fleet.crashes.length === 0, detail: fleet.crashes.slice(0, 3).map((c) => `${c.name} code ${c.code} signal ${c.signal}:\n${c.tail.join('\n')}`).join('\n\n') },
    ];

    const totals = recorder.totals();
    const batches = (await admin.query<{ status: string; n: string }>(`select status, count(*) as n from batches group by status order by status`)).rows;
    const outcomes = (await admin.query<{ outcome: string; n: string }>(`select coalesce(outcome, 'pending') as outcome, count(*) as n from batch_rows group by 1 order by 1`)).rows;
    const delivery = await deliveryChecks(admin, receiver);
    const push = recorder.latency('push');
    const pull = recorder.latency('pull');
    console.log(
      table(`Figures (${options.seconds} s of load, seed ${options.seed}, drain ${drainSeconds.toFixed(1)} s)`, [
        ['requests served', `${totals.served} (2xx ${totals.ok}, 4xx ${totals.clientErrors}, 429 ${totals.rateLimited}, 503 limiter or database unavailable ${totals.limiterUnavailable}, other 5xx ${totals.serverErrors})`],
        ['network errors (killed processes)', String(totals.network)],
        ['answers by operation', recorder.byOp().map((o) => `${o.op} ${JSON.stringify(o.answers)}`).join('; ')],
        ['pushes sent', `new ${state.pushes.new}, changed ${state.pushes.changed}, unchanged ${state.pushes.unchanged}`],
        ['batches', batches.map((b) => `${b.status} ${b.n}`).join(', ')],
        ['rows', outcomes.map((o) => `${o.outcome} ${o.n}`).join(', ')],
        ['events / deliveries / delivered', `${delivery.figures.events} / ${delivery.figures.deliveries} / ${delivery.figures.delivered} (attempts ${delivery.figures.attempts}, receipts ${delivery.figures.receipts}, repeated acceptances ${delivery.figures.duplicateAcceptances})`],
        ['faults injected', FAULT_KINDS.map((k) => `${k} ${faults.injected.get(k) ?? 0}`).join(', ')],
        ['PostgreSQL connections terminated', String(faults.terminated())],
        ['process starts', fleet.members.map((m) => `${m.name} ${m.starts}`).join(', ')],
        ['LLM mock answers', JSON.stringify(llm.answered)],
        ['push latency (2xx)', `p50 ${push.p50.toFixed(0)} ms, p99 ${push.p99.toFixed(0)} ms (${push.count})`],
        ['pull latency (2xx)', `p50 ${pull.p50.toFixed(0)} ms, p99 ${pull.p99.toFixed(0)} ms (${pull.count})`],
      ]),
    );
    console.log(table('Invariants', checks.map((c) => [`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}`, c.figure])));
    for (const c of checks.filter((c) => !c.ok && c.detail)) console.log(`\n${c.name}:\n${c.detail}`);
    failed = checks.some((c) => !c.ok);
    console.log(failed ? `\nsoak: FAILED (logs in ${logDir}, schema ${schema} kept)` : '\nsoak: passed');
    return failed ? 1 : 0;
  } catch (error) {
    console.error(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nlogs in ${logDir}`);
    return 1;
  } finally {
    if (supervisor) clearInterval(supervisor);
    await fleet.shutdown();
    await receiver.close();
    await llm.close();
    if (!failed && !options.keepSchema) await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
}
