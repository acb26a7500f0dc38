/**
 * CDN load benchmark: wrk against the public /cdn route (latest and numbered de.json, identity and Brotli, and the
 * manifest) of a release of 10,000 keys in 3 locales, beside wrk against /healthz of the same service as its HTTP
 * floor, on the embedded default and (when reachable) PostgreSQL + Redis. Asserts that no request failed: any non-2xx
 * answer or socket error (timeouts included) fails the bench with exit 1.
 *
 * The service is `parlance start` from build/ in a process of its own, as operators run it; wrk and the service
 * share the machine's cores, which the output says.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { z } from 'zod';
import { buildService, DATABASE_URL, REDIS_URL, reachable, sourceFile, withServiceProcess, type Backend, type ServiceProcess } from './bench-service.js';

const KEYS = 10_000;
// BENCH_CDN_DURATION: wrk's -d per case. 5 s keeps both backends' 8 runs near a minute and a half in all.
const DURATION = process.env.BENCH_CDN_DURATION ?? '5s';
const THREADS = 2;
const CONNECTIONS = 32;


const PushAnswer = z.object({ id: z.string() });
const BatchAnswer = z.object({ status: z.string() });
const PublishAnswer = z.object({
  created: z.literal(true),
  release: z.object({ number: z.number().int(), locales: z.array(z.object({ locale: z.string(), path: z.string() })), manifest: z.object({ path: z.string() }).nullable() }),
});
const ReleasesAnswer = z.object({ bundle_id: z.string() });

/** wrk's figures for one case, in requests/s, milliseconds and MiB/s. */
interface WrkFigures {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  mibPerSecond: number;
  non2xx: number;
  socketErrors: number;
}

const TIME_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
// wrk prints sizes in binary units with decimal-looking names (format_binary: KB is 1024 bytes).
const SIZE_UNITS_MIB: Record<string, number> = { B: 1 / 1024 ** 2, KB: 1 / 1024, MB: 1, GB: 1024, TB: 1024 ** 2 };

/** Parses wrk 4.1's `--latency` report; throws, quoting the report, when a figure it always prints is missing. */
function parseWrk(report: string): WrkFigures {
  const need = (pattern: RegExp, what: string) => {
    const match = pattern.exec(report);
    if (!match) throw new Error(`wrk's report has no ${what}. Expected wrk 4.1 with --latency; got:\n${report}`);
    return match;
  };
  const latency = (percent: string) => {
    const [, value, unit] = need(new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m|h)\\s*$`, 'm'), `${percent}% latency line`);
    return Number(value) * TIME_UNITS_MS[unit!]!;
  };
  const [, transfer, transferUnit] = need(/^Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB|TB)\s*$/m, 'Transfer/sec line');
  // Both lines are printed only when their count is not zero.
  const socket = /^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m.exec(report);
  const non2xx = /^\s*Non-2xx or 3xx responses: (\d+)/m.exec(report);
  return {
    requests: Number(need(/^\s*(\d+) requests in /m, 'request count')[1]),
    perSecond: Number(need(/^Requests\/sec:\s+([\d.]+)/m, 'Requests/sec line')[1]),
    p50: latency('50'),
    p99: latency('99'),
    mibPerSecond: Number(transfer) * SIZE_UNITS_MIB[transferUnit!]!,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

/** Runs wrk without blocking: the service answering it may live on this process's event loop. */
function wrk(url: string, acceptEncoding?: string): Promise<WrkFigures> {
  const args = [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${DURATION}`, '--latency', ...(acceptEncoding ? ['-H', `Accept-Encoding: ${acceptEncoding}`] : []), url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`wrk ${args.join(' ')} exited with ${code}:\n${out}`));
      else {
        try {
          resolve(parseWrk(out));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }
    });
  });
}

/** Pushes the source file, waits for its batch, publishes, and answers the CDN paths of the release. */
async function publishRelease({ url, headers }: Pick<ServiceProcess, 'url' | 'headers'>): Promise<{ number: number; bundleId: string }> {
  const form = new FormData();
  form.set('file', new Blob([sourceFile(KEYS)]), 'en.json');
  form.set('format', 'json');
  form.set('path', 'locales/en.json');
  const pushed = await fetch(`${url}/v1/push`, { method: 'POST', headers, body: form });
  if (pushed.status !== 202) throw new Error(`push: ${pushed.status} ${await pushed.text()}`);
  const batch = PushAnswer.parse(await pushed.json());
  for (;;) {
    const res = await fetch(`${url}/v1/batches/${batch.id}?limit=1&wait=60`, { headers });
    const { status } = BatchAnswer.parse(await res.json());
    if (status === 'completed') break;
    if (status === 'failed' || status === 'cancelled') throw new Error(`batch ${batch.id} ${status}`);
  }
  const published = await fetch(`${url}/v1/releases`, { method: 'POST', headers });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${await published.text()}`);
  const { release } = PublishAnswer.parse(await published.json());
  if (!release.locales.some((l) => l.locale === 'de') || !release.manifest) throw new Error(`release ${release.number} has no de.json or no manifest`);
  const listed = await fetch(`${url}/v1/releases`, { headers });
  return { number: release.number, bundleId: ReleasesAnswer.parse(await listed.json()).bundle_id };
}

interface Case {
  label: string;
  path: string;
  acceptEncoding?: string;
}

/**
 * Reads a case once before wrk does: it fills the service's cache as a first visitor would, and checks what wrk cannot
 * (wrk counts status codes only): the coding served and, for de.json, that the body holds every key.
 */
async function firstRead(url: string, { path, acceptEncoding }: Case): Promise<number> {
  // fetch asks for gzip unless told otherwise; wrk without -H asks for nothing, which the service serves as identity.
  const res = await fetch(`${url}${path}`, { headers: { 'accept-encoding': acceptEncoding ?? 'identity' } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  // undici's fetch decodes bodies whatever was asked, so the coding is checked on the header.
  const coding = res.headers.get('content-encoding') ?? 'identity';
  if (coding !== (acceptEncoding ?? 'identity')) throw new Error(`GET ${path} with Accept-Encoding ${acceptEncoding ?? '(none)'}: served ${coding}`);
  const bytes = Number(res.headers.get('content-length'));
  const body = await res.text();
  if (path.endsWith('/de.json') && Object.keys(JSON.parse(body) as object).length !== KEYS) throw new Error(`GET ${path}: not ${KEYS} keys`);
  return bytes;
}

interface Row {
  label: string;
  bytes: number;
  figures: WrkFigures;
}

/** The floor is measured before and after the cases; a gap between the two means the machine's load moved meanwhile. */
function print(backend: Backend, number: number, floors: [Row, Row], rows: Row[]) {
  const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`.padStart(9);
  const size = (bytes: number) => (bytes < 10 * 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KiB`).padStart(8);
  const line = ({ label, bytes, figures: f }: Row, note: string) => {
    const errors = f.non2xx + f.socketErrors;
    // wrk does not count a request that never got an answer before the run ended: none at all is a failure too.
    const verdict = f.requests === 0 ? 'NO ANSWERS' : errors === 0 ? '0 errors' : `${errors} ERRORS (${f.non2xx} non-2xx, ${f.socketErrors} socket)`;
    console.log(
      `  ${label.padEnd(28)}${size(bytes)}  ${Math.round(f.perSecond).toLocaleString('en').padStart(7)} req/s  p50 ${ms(f.p50)}  p99 ${ms(f.p99)}  ${f.mibPerSecond.toFixed(1).padStart(7)} MiB/s  ` +
        `${verdict}  ${note}`,
    );
  };
  console.log(`\n${backend}: release ${number}, ${KEYS.toLocaleString('en')} keys × 3 target locales; wrk -t${THREADS} -c${CONNECTIONS} -d${DURATION} each`);
  const floor = (floors[0].figures.perSecond + floors[1].figures.perSecond) / 2;
  line(floors[0], "(the floor: the same service's most trivial route, before the cases)");
  for (const row of rows) line(row, `${((row.figures.perSecond / floor) * 100).toFixed(0).padStart(3)}% of the floor's req/s`);
  line(floors[1], '(the floor again, after the cases; the percentages are of the mean of both)');
}

/** One backend: the service, a published release, then wrk on the floor and each CDN case. Answers whether all succeeded. */
async function bench(backend: Backend): Promise<boolean> {
  let clean = true;
  await withServiceProcess(backend, { abilities: ['push', 'read', 'manage'] }, async (service) => {
    const { number, bundleId } = await publishRelease(service);
    const cdn = `/cdn/${bundleId}`;
    const cases: Case[] = [
      { label: 'latest/de.json', path: `${cdn}/latest/de.json` },
      { label: 'latest/de.json br', path: `${cdn}/latest/de.json`, acceptEncoding: 'br' },
      { label: `${number}/de.json`, path: `${cdn}/${number}/de.json` },
      { label: `${number}/de.json br`, path: `${cdn}/${number}/de.json`, acceptEncoding: 'br' },
      { label: 'latest/manifest.json', path: `${cdn}/latest/manifest.json` },
      { label: 'latest/manifest.json br', path: `${cdn}/latest/manifest.json`, acceptEncoding: 'br' },
    ];
    const run = async (c: Case): Promise<Row> => {
      const bytes = await firstRead(service.url, c);
      return { label: c.label, bytes, figures: await wrk(`${service.url}${c.path}`, c.acceptEncoding) };
    };
    const floorCase: Case = { label: 'GET /healthz', path: '/healthz' };
    const before = await run(floorCase);
    const rows: Row[] = [];
    for (const c of cases) rows.push(await run(c));
    const after = await run(floorCase);
    print(backend, number, [before, after], rows);
    clean = [before, after, ...rows].every(({ figures: f }) => f.non2xx === 0 && f.socketErrors === 0 && f.requests > 0);
  });
  return clean;
}

async function main(): Promise<number> {
  const probe = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    console.error('wrk is not installed: apt-get install -y wrk');
    return 1;
  }
  const cores = cpus();
  console.log(
    `\nCDN under load: ${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown'}), Node ${process.versions.node}, ${/^wrk \S+/.exec(probe.stdout)?.[0] ?? 'wrk'}.\n` +
      `wrk (${THREADS} threads, ${CONNECTIONS} connections) and the service share these ${cores.length} cores: figures are for both on one machine, not the service alone.\n` +
      // Anything else running (tests, builds) takes from the same cores; the load average tells the reader it was there.
      `Load average before the run: ${loadavg()[0]!.toFixed(2)} (1 min).`,
  );
  buildService();
  let clean = await bench('embedded');
  if (await reachable()) clean = (await bench('postgres+redis')) && clean;
  else console.log(`\npostgres+redis: skipped (no PostgreSQL at ${DATABASE_URL} or Redis at ${REDIS_URL})`);
  if (!clean) console.error('\nErrors under load (non-2xx answers, socket errors or no answers at all, above): failing the bench.');
  return clean ? 0 : 1;
}

process.exitCode = await main();
