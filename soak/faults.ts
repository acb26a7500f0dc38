/**
 * Faults, on a schedule and at random (seeded): every kind comes round in a shuffled cycle, and some picks are
 * drawn freely, so faults overlap as they do in production. Windowed faults (receiver, LLM) end by themselves.
 */
import pg from 'pg';
import type { Fleet, Member } from './fleet.js';
import { sleep } from './fleet.js';
import type { LlmMock } from './llm-mock.js';
import type { Random } from './random.js';
import type { Receiver } from './receiver.js';

export const FAULT_KINDS = ['kill_api', 'kill_worker', 'redis_restart', 'pg_terminate', 'receiver_down', 'receiver_slow', 'receiver_500', 'llm_429', 'llm_5xx'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultDeps {
  fleet: Fleet;
  receiver: Receiver;
  llm: LlmMock;
  random: Random;
  /** Connection to the service's database as the soak itself (not terminated by pg_terminate). */
  admin: pg.Client;
  databaseName: string;
  appPrefix: string;
}

export function createFaults(deps: FaultDeps) {
  const { fleet, receiver, llm, random } = deps;
  const injected = new Map<FaultKind, number>();
  const busy = new Set<string>();
  /** Times at which the soak's Redis came back empty: rate-limit windows spanning one start counting again. */
  const redisRestarts: number[] = [];
  let terminatedConnections = 0;
  const running = new Set<Promise<void>>();
  let receiverFaultUntil = 0;
  let llmFaultUntil = 0;

  async function bounce(member: Member) {
    busy.add(member.name);
    try {
      await fleet.stop(member, 'SIGKILL');
      await sleep(random.int(300, 2500));
      if (member.role === 'redis') redisRestarts.push(Date.now());
      await fleet.start(member);
    } finally {
      busy.delete(member.name);
    }
  }

  async function windowed(set: () => Promise<void> | void, reset: () => Promise<void> | void, ms: number) {
    await set();
    await sleep(ms);
    await reset();
  }

  /** Injects one fault; false when it cannot be injected now (its target is busy). */
  function inject(kind: FaultKind): boolean {
    let work: Promise<void>;
    const now = Date.now();
    switch (kind) {
      case 'kill_api':
      case 'kill_worker': {
        const role = kind === 'kill_api' ? 'serve' : 'worker';
        // One of each role stays up, so the service as a whole keeps answering and working.
        const candidates = fleet.members.filter((m) => m.role === role && m.proc && !busy.has(m.name));
        if (candidates.length <= 1) return false;
        work = bounce(random.pick(candidates));
        break;
      }
      case 'redis_restart': {
        const redis = fleet.members.find((m) => m.role === 'redis')!;
        if (busy.has(redis.name)) return false;
        work = bounce(redis);
        break;
      }
      case 'pg_terminate':
        work = deps.admin
          .query<{ pid: number }>(
            `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and application_name like $2 and pg_terminate_backend(pid)`,
            [deps.databaseName, `${deps.appPrefix}%`],
          )
          .then((result) => {
            terminatedConnections += result.rowCount ?? 0;
          });
        break;
      case 'receiver_down':
      case 'receiver_slow':
      case 'receiver_500': {
        if (now < receiverFaultUntil) return false;
        const ms = random.int(3000, 12_000);
        receiverFaultUntil = now + ms;
        const mode = kind === 'receiver_down' ? 'down' : kind === 'receiver_slow' ? 'slow' : 'error';
        work = windowed(() => receiver.setMode(mode), () => receiver.setMode('up'), ms);
        break;
      }
      case 'llm_429':
      case 'llm_5xx': {
        if (now < llmFaultUntil) return false;
        const ms = random.int(2000, 8000);
        llmFaultUntil = now + ms;
        work = windowed(() => void (llm.mode = kind === 'llm_429' ? 'rate_limited' : 'server_error'), () => void (llm.mode = 'ok'), ms);
        break;
      }
    }
    injected.set(kind, (injected.get(kind) ?? 0) + 1);
    const tracked: Promise<void> = work
      .catch((error: unknown) => console.error(`fault ${kind} failed: ${String(error)}`))
      .finally(() => running.delete(tracked));
    running.add(tracked);
    return true;
  }

  /** Injects faults every few seconds until `stop()`; returns once the last fault has ended. */
  async function run(options: { stop: () => boolean; minGapMs: number; maxGapMs: number }): Promise<void> {
    let cycle: FaultKind[] = [];
    while (!options.stop()) {
      if (cycle.length === 0) cycle = [...FAULT_KINDS].sort(() => random.next() - 0.5);
      // Mostly the schedule, sometimes a free draw; a busy target puts the kind back for later.
      const kind = random.chance(0.3) ? random.pick(FAULT_KINDS) : cycle.shift()!;
      if (!inject(kind) && !cycle.includes(kind)) cycle.push(kind);
      const until = Date.now() + random.int(options.minGapMs, options.maxGapMs);
      while (!options.stop() && Date.now() < until) await sleep(200);
    }
    await Promise.all([...running]);
    await receiver.setMode('up');
    llm.mode = 'ok';
  }

  return { run, injected, redisRestarts, terminated: () => terminatedConnections };
}
