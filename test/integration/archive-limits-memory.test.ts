/**
 * Refusing a zip bomb costs the service no more memory than the limit lets an archive inflate to: its peak resident
 * memory while it refuses an .xlsx push and an import of 512 MiB of zeros stays within 100 MiB of its idle figure.
 * Without the limit, inflating the bomb alone takes 512 MiB.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { xlsxCodec } from '../../src/core/formats/xlsx.js';
import { buildZip, deflatedZeros } from '../helpers/build-zip.js';
import { filePush, startService, type TestService } from '../helpers/service.js';

const MIB = 1024 * 1024;
const BOMB = 512 * MIB;

let service: TestService;
beforeAll(async () => {
  service = await startService({ env: { RATE_LIMIT_PER_MINUTE: '100000', ...(process.env.X_LIMIT ? { MAX_INFLATED_BYTES: process.env.X_LIMIT } : {}) } });
});
afterAll(async () => {
  await service?.stop();
});

const status = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

async function peakGrowth(run: () => Promise<void>) {
  writeFileSync('/proc/self/clear_refs', '5');
  const idle = status('VmRSS');
  await run();
  return { idle: idle / MIB, growth: (status('VmHWM') - idle) / MIB };
}

const workbook = () =>
  buildZip([
    ...Object.entries(unzipSync(xlsxCodec.renderFresh([{ key: 'hello', value: 'Hello' }]))).map(([name, content]) => ({ name, content })),
    { name: 'xl/sharedStrings.xml', deflated: deflatedZeros(BOMB) },
  ]);

it('push', async () => {
  const bomb = workbook();
  for (let i = 0; i < 4; i++) {
    const figures = await peakGrowth(async () => {
      const res = await service.api('/v1/push', { method: 'POST', body: filePush(bomb, { format: 'xlsx', path: 'en.xlsx' }, 'en.xlsx') });
      console.log(res.status, (await res.text()).slice(0, 100));
    });
    console.log(figures);
  }
});
