/**
 * `npm run fuzz`: the codec fuzzer, then the HTTP fuzzer. FUZZ_MUTANTS sets mutants per format (default 10,000; CI 300),
 * FUZZ_SEED the seed (default: random, printed), FUZZ_FORMATS a comma-separated subset, FUZZ_ONLY `codecs` or `http`,
 * FUZZ_INDEX comma-separated mutant indices to reproduce a reported failure (with its FUZZ_SEED and FUZZ_FORMATS).
 * Exits 1 on any failure, with the failing mutants under fuzz-artifacts/.
 */
import { fileURLToPath } from 'node:url';
import { isFormatId, type FormatId } from '../../src/core/formats/index.js';
import { fuzzCodecs } from './codecs.js';
import { fuzzHttp } from './http.js';

const ARTIFACTS = fileURLToPath(new URL('../../fuzz-artifacts/', import.meta.url));

function settings() {
  const mutants = Number(process.env.FUZZ_MUTANTS ?? 10_000);
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
  const formats = process.env.FUZZ_FORMATS?.split(',').map((f) => f.trim());
  const only = process.env.FUZZ_ONLY;
  const indices = process.env.FUZZ_INDEX?.split(',').map((i) => Number(i.trim()));
  if (indices?.some((i) => !Number.isInteger(i) || i < 0)) throw new Error(`Invalid FUZZ_INDEX '${process.env.FUZZ_INDEX}'. Expected mutant indices such as '2765,3576'.`);
  if (!Number.isInteger(mutants) || mutants < 1) throw new Error(`Invalid FUZZ_MUTANTS '${process.env.FUZZ_MUTANTS}'. Expected a positive integer such as 300.`);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`Invalid FUZZ_SEED '${process.env.FUZZ_SEED}'. Expected a non-negative integer such as 12345.`);
  const unknown = formats?.find((f) => !isFormatId(f));
  if (unknown !== undefined) throw new Error(`Invalid FUZZ_FORMATS entry '${unknown}'. Expected format ids such as 'json,po'.`);
  if (only !== undefined && only !== 'codecs' && only !== 'http') throw new Error(`Invalid FUZZ_ONLY '${only}'. Expected 'codecs' or 'http'.`);
  return { mutants, seed, formats: formats as FormatId[] | undefined, only, indices };
}

async function main(): Promise<number> {
  const { mutants, seed, formats, only, indices } = settings();
  let failures = 0;
  const started = Date.now();
  console.log(`fuzz: FUZZ_SEED=${seed} FUZZ_MUTANTS=${mutants}`);

  if (only !== 'http') {
    console.log(`\ncodecs: ${mutants.toLocaleString('en')} mutants per format`);
    const codecStart = Date.now();
    const counts = fuzzCodecs({ seed, mutantsPerFormat: mutants, formats, indices, artifactsDir: ARTIFACTS, log: (line) => console.log(line) });
    console.log(`  ${'format'.padEnd(16)}${'seeds'.padStart(6)}${'mutants'.padStart(9)}${'parsed'.padStart(8)}${'refused'.padStart(9)}${'failures'.padStart(10)}${'slowest'.padStart(10)}`);
    for (const c of counts) {
      console.log(`  ${c.format.padEnd(16)}${String(c.seeds).padStart(6)}${String(c.mutants).padStart(9)}${String(c.parsed).padStart(8)}${String(c.refused).padStart(9)}${String(c.failures).padStart(10)}${`${Math.round(c.slowestMs)} ms`.padStart(10)}`);
      failures += c.failures;
    }
    const total = counts.reduce((n, c) => n + c.mutants, 0);
    console.log(`  ${total.toLocaleString('en')} mutants in ${((Date.now() - codecStart) / 1000).toFixed(1)} s`);
  }

  if (only !== 'codecs') {
    console.log('\nhttp: every operation of /v1/openapi.json with inputs that violate its schema');
    const http = await fuzzHttp({ seed, artifactsDir: ARTIFACTS, log: (line) => console.log(line) });
    console.log(`  ${http.operations} operations, ${http.requests} requests in ${(http.ms / 1000).toFixed(1)} s: ${http.refused} refused with 4xx problem+json, ${http.accepted} accepted (only where an extra or odd input may be ignored), ${http.failures} failures`);
    for (const [status, n] of Object.entries(http.statuses).sort()) console.log(`    HTTP ${status}: ${n}`);
    failures += http.failures;
  }

  console.log(`\nfuzz: ${failures === 0 ? 'passed' : `${failures} failures (FUZZ_SEED=${seed}; mutants saved under fuzz-artifacts/)`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
