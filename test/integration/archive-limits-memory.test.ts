/**
 * Refusing a zip bomb costs the service no more memory than the limit lets an archive inflate to: its peak resident
 * memory while it refuses an .xlsx push, and an import, of 512 MiB of zeros stays within 100 MiB of its idle figure
 * (without the limit, inflating the bomb alone takes 512 MiB more).
 *
 * The peak is the kernel's (VmHWM), reset just before each refusal by writing 5 to /proc/self/clear_refs, so it is the
 * peak of that refusal, even inside the synchronous inflate where no timer could sample. The service runs with the
 * default limit (100 MiB): an entry that inflates past its declared size is counted before it is kept, so a bomb is
 * refused without holding the limit's worth of zeros.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsxCodec } from '../../src/core/formats/xlsx.js';
import { buildZip, deflatedZeros, type ZipEntrySpec } from '../helpers/build-zip.js';
import { filePush, startService, type TestService } from '../helpers/service.js';

const MIB = 1024 * 1024;
const BOMB = 512 * MIB;

/** Whether the kernel lets this process reset its peak resident memory (Linux 4.0 and later). */
const canResetPeak = (() => {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
})();

const status = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

/** How far the process's resident memory rose above where it stood when `run` began. */
async function peakGrowth(run: () => Promise<void>): Promise<number> {
  writeFileSync('/proc/self/clear_refs', '5');
  const idle = status('VmRSS');
  await run();
  return status('VmHWM') - idle;
}

const parts: ZipEntrySpec[] = Object.entries(unzipSync(xlsxCodec.renderFresh([{ key: 'hello', value: 'Hello' }]))).map(([name, content]) => ({ name, content }));
const push = (bytes: Uint8Array) => service.api('/v1/push', { method: 'POST', body: filePush(bytes, { format: 'xlsx', path: 'en.xlsx', locales: 'de' }, 'en.xlsx') });

let service: TestService;
beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  // What a first request loads and compiles is not the refusal's.
  expect((await push(buildZip(parts))).status).toBe(202);
});
afterAll(async () => {
  await service?.stop();
});

describe.skipIf(!canResetPeak)('peak memory while refusing a 512 MiB zip bomb', () => {
  it('an .xlsx push: 413, within 100 MiB of idle', async () => {
    const bomb = buildZip([...parts, { name: 'xl/sharedStrings.xml', deflated: deflatedZeros(BOMB) }]);
    let status = 0;
    const growth = await peakGrowth(async () => {
      const res = await push(bomb);
      status = res.status;
      await res.arrayBuffer();
    });
    expect(status).toBe(413);
    if (process.env.TEST_REPORT_MEMORY) console.log(`peak growth ${(growth / MIB).toFixed(1)} MiB`);
    expect(growth / MIB).toBeLessThan(100);
  });

  it('an import of an export: failed, within 100 MiB of idle', async () => {
    const form = new FormData();
    form.set('platform', 'tolgee');
    form.set('file', new Blob([buildZip([{ name: 'en.json', content: '{"hello":"Hello"}' }, { name: 'de.json', deflated: deflatedZeros(BOMB) }]) as Uint8Array<ArrayBuffer>]), 'export.zip');
    let result: { status: string; error: string | null } = { status: '', error: null };
    const growth = await peakGrowth(async () => {
      const queued = (await (await service.api('/v1/imports', { method: 'POST', body: form })).json()) as { id: string };
      const deadline = Date.now() + 30_000;
      while (!['completed', 'failed', 'cancelled'].includes(result.status) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        result = (await (await service.api(`/v1/imports/${queued.id}`)).json()) as typeof result;
      }
    });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/^export\.zip: Archive entry 'de\.json' inflates past the limit of 104,857,600 bytes \(MAX_INFLATED_BYTES\)/);
    if (process.env.TEST_REPORT_MEMORY) console.log(`peak growth ${(growth / MIB).toFixed(1)} MiB`);
    expect(growth / MIB).toBeLessThan(100);
  });
});
