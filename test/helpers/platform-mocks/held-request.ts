/**
 * Holding one request of a platform mock at the wire: the mock has it (the importer waits on its answer) but answers
 * only when the test releases it, so a test acts on an import at a known point of its reading, not on a timing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface HeldRequest {
  /** Settles once the matching request has arrived and is being held. */
  reached: Promise<void>;
  /** Lets the held request through: the mock answers it as it would have. */
  release(): void;
  /** How the held exchange ended: answered, or the client went away (aborted its request) before an answer. */
  settled: Promise<'answered' | 'aborted'>;
}

type Match = (method: string, url: URL) => boolean;

/** The holds a mock server consults for each request; each hold takes the first request it matches, once. */
export function createRequestHolds() {
  const pending: { match: Match; arrive(): void; released: Promise<void>; settle(outcome: 'answered' | 'aborted'): void }[] = [];

  return {
    hold(match: Match): HeldRequest {
      let arrive!: () => void;
      let release!: () => void;
      let settle!: (outcome: 'answered' | 'aborted') => void;
      const reached = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const settled = new Promise<'answered' | 'aborted'>((resolve) => (settle = resolve));
      pending.push({ match, arrive, released, settle });
      return { reached, release, settled };
    },
    /**
     * Waits while a hold takes this request; answers whether to go on answering it (false: the client went away while
     * it was held, and there is nobody to answer).
     */
    async pass(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
      const index = pending.findIndex((h) => h.match(req.method ?? 'GET', url));
      if (index < 0) return true;
      const [held] = pending.splice(index, 1);
      res.on('close', () => held!.settle(res.writableFinished ? 'answered' : 'aborted'));
      held!.arrive();
      await held!.released;
      return !res.destroyed;
    },
  };
}
