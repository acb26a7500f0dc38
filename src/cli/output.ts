/** How the user CLI writes: result lines or one JSON document on stdout, notes and problems on stderr, batch progress on a TTY or as plain lines. */
import type { Batch } from '../client/types.js';

export interface Stream {
  write(chunk: string): unknown;
}

/** What a CLI run may touch of its process: the tests drive `runCli` with their own streams, environment and directory. */
export interface CliIo {
  stdout: Stream;
  stderr: Stream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Whether stderr, where progress goes, is a terminal: then the bar is redrawn in place with `\r`. */
  isTTY: boolean;
}

export interface Output {
  readonly json: boolean;
  /** A result line on stdout; left out in --json mode (the document carries it) and with --quiet. */
  line(text: string): void;
  /** A note on stderr (a skipped rule, a rate-limit wait); left out with --quiet. */
  note(text: string): void;
  /** Something the user must see whatever the flags (a refused row, the error that stopped the run): always on stderr. */
  problem(text: string): void;
  /** The command's one JSON document on stdout, in --json mode only. */
  document(data: unknown): void;
  /** Progress of one batch at a time on stderr; silent with --quiet. */
  progress(label: string): Progress;
}

export interface Progress {
  update(batch: Batch): void;
  end(): void;
}

/**
 * Builds the writer for one run. Every line passes through `redact`, so a token that ends up in a message
 * (an unexpected argument, an echoed URL) is never printed.
 */
export function createOutput(io: CliIo, options: { json: boolean; quiet: boolean; secret?: string | undefined }): Output {
  const redact = (text: string) => (options.secret ? text.replaceAll(options.secret, '***') : text);
  const out = (text: string) => io.stdout.write(redact(text));
  const err = (text: string) => io.stderr.write(redact(text));
  return {
    json: options.json,
    line(text) {
      if (!options.json && !options.quiet) out(`${text}\n`);
    },
    note(text) {
      if (!options.quiet) err(`${text}\n`);
    },
    problem(text) {
      err(`${text}\n`);
    },
    document(data) {
      if (options.json) out(`${JSON.stringify(data, null, 2)}\n`);
    },
    progress(label) {
      if (options.quiet) return { update() {}, end() {} };
      return io.isTTY ? ttyProgress(label, err) : lineProgress(label, err);
    },
  };
}

const BAR_WIDTH = 24;

/** Rows that will not change any more: translated, refused, failed or cancelled. */
export function settledRows(batch: Pick<Batch, 'rows'>): number {
  return batch.rows.done + batch.rows.failed + batch.rows.cancelled;
}

/** `[#########---------------] 12/32 rows  37%`; an empty batch is a full bar. */
export function progressBar(settled: number, total: number, width = BAR_WIDTH): string {
  const fraction = total === 0 ? 1 : Math.min(1, settled / total);
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${settled}/${total} rows ${String(Math.floor(fraction * 100)).padStart(3)}%`;
}

/** One progress line for a batch: label, status and bar. */
export function progressLine(label: string, batch: Batch): string {
  return `${label} ${batch.status.padEnd(9)} ${progressBar(settledRows(batch), batch.rows.total)}`;
}

function ttyProgress(label: string, err: (text: string) => void): Progress {
  let drawn = 0;
  return {
    update(batch) {
      const line = progressLine(label, batch);
      // Pad over the previous line: a shorter status would otherwise leave its tail on screen.
      err(`\r${line.padEnd(drawn)}`);
      drawn = line.length;
    },
    end() {
      if (drawn > 0) err('\n');
      drawn = 0;
    },
  };
}

/** Without a terminal, a line per status change or per quarter of the rows, so CI logs stay short. */
function lineProgress(label: string, err: (text: string) => void): Progress {
  let last: { status: string; quarter: number } | undefined;
  return {
    update(batch) {
      const quarter = batch.rows.total === 0 ? 4 : Math.floor((settledRows(batch) / batch.rows.total) * 4);
      if (last && last.status === batch.status && last.quarter === quarter) return;
      last = { status: batch.status, quarter };
      err(`${progressLine(label, batch)}\n`);
    },
    end() {},
  };
}

/** Seconds for a human: `12 s`, `1.5 s`. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds >= 10 || Number.isInteger(seconds) ? Math.round(seconds) : seconds.toFixed(1)} s`;
}

/** `1 key`, `3 keys`. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
