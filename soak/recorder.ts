/** What the clients saw: answers per operation and status class, latencies, network errors, and the rate-limit windows per token. */

export interface Unexpected {
  op: string;
  status: number;
  body: string;
  at: string;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function createRecorder() {
  /** op → status (or 'network') → count */
  const answers = new Map<string, Map<string, number>>();
  const latencies = new Map<string, number[]>();
  /** token label → window end (x-ratelimit-reset, Unix seconds) → requests the limiter let through */
  const windows = new Map<string, Map<number, number>>();
  const unexpected: Unexpected[] = [];
  let limiterUnavailable = 0;

  function count(op: string, what: string) {
    const byStatus = answers.get(op) ?? new Map<string, number>();
    byStatus.set(what, (byStatus.get(what) ?? 0) + 1);
    answers.set(op, byStatus);
  }

  return {
    unexpected,
    network(op: string) {
      count(op, 'network');
    },
    /** One HTTP answer; `body` is read only for 5xx, to say what went wrong. */
    answer(op: string, token: string, res: Response, ms: number, body?: string) {
      count(op, String(res.status));
      if (res.status >= 200 && res.status < 300) {
        const list = latencies.get(op) ?? [];
        list.push(ms);
        latencies.set(op, list);
      }
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      if (res.status !== 429 && res.status < 500 && Number.isFinite(reset) && reset > 0) {
        const perToken = windows.get(token) ?? new Map<number, number>();
        perToken.set(reset, (perToken.get(reset) ?? 0) + 1);
        windows.set(token, perToken);
      }
      // A 503 with Retry-After while Redis or a PostgreSQL connection is away is the promised answer, not a failure.
      if (res.status === 503 && (body?.includes('rate_limiter_unavailable') || body?.includes('database_unavailable'))) limiterUnavailable += 1;
      else if (res.status >= 500) unexpected.push({ op, status: res.status, body: (body ?? '').slice(0, 400), at: new Date().toISOString() });
    },
    totals() {
      let served = 0;
      let network = 0;
      let rateLimited = 0;
      let ok = 0;
      let clientErrors = 0;
      for (const byStatus of answers.values()) {
        for (const [status, n] of byStatus) {
          if (status === 'network') network += n;
          else {
            served += n;
            if (status === '429') rateLimited += n;
            else if (status.startsWith('2')) ok += n;
            else if (status.startsWith('4')) clientErrors += n;
          }
        }
      }
      return { served, ok, clientErrors, rateLimited, network, limiterUnavailable, serverErrors: unexpected.length };
    },
    byOp() {
      return [...answers.entries()].map(([op, byStatus]) => ({ op, answers: Object.fromEntries([...byStatus.entries()].sort()) }));
    },
    latency(op: string) {
      const sorted = [...(latencies.get(op) ?? [])].sort((a, b) => a - b);
      return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    },
    windows,
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
