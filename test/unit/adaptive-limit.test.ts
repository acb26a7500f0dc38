/** The adaptive limit on a model's requests in flight: slow start, halving on push back once per round trip, the ceiling, the minute's budgets. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAdaptiveLimit, nearlySpent } from '../../server/providers/adaptive-limit.js';

const OK = new Headers();

/** Runs `count` attempts through the limit, each answering `status` when released; returns the releases and the most in flight. */
function attempts(limit: ReturnType<typeof createAdaptiveLimit>, count: number, status: (i: number) => number, headers: Headers = OK) {
  let inFlight = 0;
  let most = 0;
  const releases: (() => void)[] = [];
  const done = Array.from({ length: count }, (_, i) =>
    limit.run(async (answered) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight -= 1;
      answered(status(i), headers);
      return i;
    }, 10),
  );
  return { releases, done, most: () => most, inFlight: () => inFlight };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('adaptive limit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts at the initial limit and, until pushed back, grows by one per answer', async () => {
    const limit = createAdaptiveLimit({ initial: 4, max: 64 });
    const run = attempts(limit, 20, () => 200);
    await tick();
    expect(run.inFlight()).toBe(4);
    // One round trip: the four answers make room for eight.
    run.releases.splice(0, 4).forEach((release) => release());
    await tick();
    expect(limit.snapshot().limit).toBe(8);
    expect(run.inFlight()).toBe(8);
    while (run.releases.length > 0) {
      run.releases.splice(0).forEach((release) => release());
      await tick();
    }
    expect(await Promise.all(run.done)).toHaveLength(20);
    expect(limit.snapshot()).toMatchObject({ inFlight: 0, requestsLastMinute: 20 });
  });

  it('never goes above the ceiling', async () => {
    const limit = createAdaptiveLimit({ initial: 4, max: 6 });
    const run = attempts(limit, 30, () => 200);
    let finished = false;
    const all = Promise.all(run.done).then(() => (finished = true));
    while (!finished) {
      await tick();
      run.releases.splice(0).forEach((release) => release());
    }
    await all;
    expect(run.most()).toBe(6);
    expect(limit.snapshot().limit).toBe(6);
  });

  it('halves on the first 429 once per round trip, however many of the requests then in flight are refused, and later takes 0.7', async () => {
    const limit = createAdaptiveLimit({ initial: 8, max: 64 });
    const run = attempts(limit, 8, () => 429);
    await tick();
    expect(run.inFlight()).toBe(8);
    run.releases.splice(0).forEach((release) => release());
    await Promise.all(run.done);
    expect(limit.snapshot()).toMatchObject({ limit: 4, throttledLastMinute: 1 });

    // After the push back, growth is one per round trip: four answers add one place.
    const next = attempts(limit, 4, () => 200);
    await tick();
    next.releases.splice(0).forEach((release) => release());
    await Promise.all(next.done);
    expect(limit.snapshot().limit).toBe(5);

    // A later push back takes it to 0.7 of itself, not half: 5 → 3.5.
    const again = attempts(limit, 5, () => 429);
    await tick();
    again.releases.splice(0).forEach((release) => release());
    await Promise.all(again.done);
    expect(limit.snapshot()).toMatchObject({ limit: 3, throttledLastMinute: 2 });
  });

  it('reads rate-limit headers nearly spent as a push back (OpenAI and Anthropic spellings)', async () => {
    expect(nearlySpent(new Headers({ 'x-ratelimit-limit-requests': '500', 'x-ratelimit-remaining-requests': '20' }))).toBe(true);
    expect(nearlySpent(new Headers({ 'x-ratelimit-limit-tokens': '200000', 'x-ratelimit-remaining-tokens': '150000' }))).toBe(false);
    expect(nearlySpent(new Headers({ 'anthropic-ratelimit-tokens-limit': '80000', 'anthropic-ratelimit-tokens-remaining': '1000' }))).toBe(true);
    expect(nearlySpent(new Headers({ 'x-ratelimit-remaining-requests': '0' }))).toBe(false);

    const limit = createAdaptiveLimit({ initial: 16, max: 64 });
    const run = attempts(limit, 1, () => 200, new Headers({ 'x-ratelimit-limit-requests': '500', 'x-ratelimit-remaining-requests': '3' }));
    await tick();
    run.releases.splice(0).forEach((release) => release());
    await Promise.all(run.done);
    expect(limit.snapshot().limit).toBe(8);
  });

  it('paces requests to the operator’s requests per minute', async () => {
    vi.useFakeTimers();
    const limit = createAdaptiveLimit({ initial: 16, max: 64, requestsPerMinute: 3 });
    const startedAt: number[] = [];
    const done = Array.from({ length: 5 }, () =>
      limit.run(async (answered) => {
        startedAt.push(Date.now());
        answered(200, OK);
      }, 1),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(startedAt).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(60_000);
    await Promise.all(done);
    expect(startedAt).toHaveLength(5);
    expect(startedAt[3]! - startedAt[0]!).toBeGreaterThanOrEqual(60_000);
  });

  it('paces requests to the operator’s tokens per minute; a request over the whole budget goes alone', async () => {
    vi.useFakeTimers();
    const limit = createAdaptiveLimit({ initial: 16, max: 64, tokensPerMinute: 1000 });
    const started: number[] = [];
    const send = (tokens: number) => limit.run(async (answered) => void (started.push(tokens), answered(200, OK)), tokens);
    const done = [send(600), send(600), send(5000)];
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([600]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(started).toEqual([600, 600]);
    await vi.advanceTimersByTimeAsync(60_000);
    await Promise.all(done);
    expect(started).toEqual([600, 600, 5000]);
  });

  it('gives up waiting when the call is aborted, and frees nothing it did not take', async () => {
    const limit = createAdaptiveLimit({ initial: 1, max: 1 });
    const first = attempts(limit, 1, () => 200);
    await tick();
    const abort = new AbortController();
    const waiting = limit.run(async () => 'never', 1, abort.signal);
    abort.abort(new Error('batch cancelled'));
    await expect(waiting).rejects.toThrow('batch cancelled');
    first.releases.splice(0).forEach((release) => release());
    await Promise.all(first.done);
    expect(limit.snapshot().inFlight).toBe(0);
  });
});
