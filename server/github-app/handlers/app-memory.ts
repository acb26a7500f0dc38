/**
 * What the App remembers between events, in memory: which commit a batch it pushed came from (for the base check
 * run), and the drift imports not yet shown in a pull request body. Lost on restart, which costs only a line in a
 * PR body or a check run on the base head instead of the exact commit.
 */
import type { DriftImport } from '../pr-body.js';

/** Batches remembered per process; old ones fall out first so a long-running App does not grow without bound. */
const TRIGGER_LIMIT = 1000;

export function createAppMemory() {
  const triggers = new Map<string, string>();
  const drift = new Map<string, DriftImport[]>();

  return {
    /** The commit whose push started a batch. */
    rememberTrigger(batchId: string, commitSha: string): void {
      triggers.set(batchId, commitSha);
      if (triggers.size > TRIGGER_LIMIT) triggers.delete(triggers.keys().next().value!);
    },
    triggerOf(batchId: string): string | undefined {
      return triggers.get(batchId);
    },
    /** Adds drift imports for a link's next pull request body; an import already listed is not listed twice. */
    addDrift(linkId: string, imports: readonly DriftImport[]): void {
      const list = drift.get(linkId) ?? [];
      for (const d of imports) {
        if (!list.some((x) => x.key === d.key && x.locale === d.locale && x.path === d.path)) list.push(d);
      }
      drift.set(linkId, list);
    },
    /** The link's pending drift imports, removed; give them back with addDrift if the pull request could not be written. */
    takeDrift(linkId: string): DriftImport[] {
      const list = drift.get(linkId) ?? [];
      drift.delete(linkId);
      return list;
    },
  };
}

export type AppMemory = ReturnType<typeof createAppMemory>;
