/** The batch pace the API reports (rows a minute, seconds left) and the progress line the CLI and the Action draw from it. */
import { describe, expect, it } from 'vitest';
import { batchRate } from '../../server/services/batches/batch-service.js';
import type { Batch } from '../../src/client/types.js';
import { progressLine } from '../../src/sync/output.js';

const started = new Date('2026-12-03T10:00:00Z');

describe('batch pace', () => {
  it('is rows settled a minute since the start, and the seconds left at that pace', () => {
    // 600 rows in 30 s: 1,200 a minute; 1,800 queued take 90 s more.
    expect(batchRate({ started_at: started, finished_at: null }, 600, 1800, started.getTime() + 30_000)).toEqual({ rows_per_minute: 1200, eta_seconds: 90 });
    // Ended: the pace to its end, nothing left.
    expect(batchRate({ started_at: started, finished_at: new Date(started.getTime() + 60_000) }, 3000, 0, started.getTime() + 600_000)).toEqual({ rows_per_minute: 3000, eta_seconds: null });
  });

  it('is unknown before a worker starts the batch or a row settles', () => {
    expect(batchRate({ started_at: null, finished_at: null }, 0, 10)).toEqual({ rows_per_minute: null, eta_seconds: null });
    expect(batchRate({ started_at: started, finished_at: null }, 0, 10, started.getTime() + 5000)).toEqual({ rows_per_minute: null, eta_seconds: null });
  });
});

describe('progress line', () => {
  const batch = (status: Batch['status'], rate?: Batch['rate']): Batch => ({
    id: 'b_1',
    status,
    path: 'locales/en.json',
    format: 'json',
    keys: { added: 2000, changed: 0, unchanged: 0, removed: 0 },
    rows: { total: 6000, queued: 3000, done: 3000, failed: 0, cancelled: 0, outcomes: { translated: 3000 } },
    words: { reserved: 0, spent: 0, refunded: 0 },
    ...(rate ? { rate } : {}),
    error: null,
    created_at: started.toISOString(),
    started_at: started.toISOString(),
    finished_at: null,
  });

  it('shows the pace and the time left while the batch runs', () => {
    expect(progressLine('locales/en.json', batch('running', { rows_per_minute: 78000, eta_seconds: 3 }))).toBe(
      'locales/en.json running   [############------------] 3000/6000 rows  50%  78,000 rows/min, about 3 s left',
    );
  });

  it('shows the bar alone before the pace is known, from an older service, or once the batch has ended', () => {
    const bar = '[############------------] 3000/6000 rows  50%';
    expect(progressLine('x', batch('running', { rows_per_minute: null, eta_seconds: null }))).toBe(`x running   ${bar}`);
    expect(progressLine('x', batch('running'))).toBe(`x running   ${bar}`);
    expect(progressLine('x', batch('completed', { rows_per_minute: 5000, eta_seconds: null }))).toBe(`x completed ${bar}`);
  });
});
