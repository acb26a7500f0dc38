/** What a run writes through, whichever host runs it (a terminal, a workflow log), and the lines for batch progress and counts. */
import type { Batch } from '../client/types.js';

export interface Stream {
  write(chunk: string): unknown;
}

/** What a run may touch of its process: the CLI's tests drive `runCli` with their own streams, environment and directory; the Action passes its step's. */
export interface CommandIo {
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

/** One progress line for a batch: label, status and bar, and while it runs its pace (`1,250 rows/min, about 12 s left`). */
export function progressLine(label: string, batch: Batch): string {
  const line = `${label} ${batch.status.padEnd(9)} ${progressBar(settledRows(batch), batch.rows.total)}`;
  const perMinute = batch.rate?.rows_per_minute;
  if (batch.status !== 'running' || perMinute === null || perMinute === undefined) return line;
  const left = batch.rate?.eta_seconds;
  return `${line}  ${perMinute.toLocaleString('en-US')} rows/min${left !== null && left !== undefined ? `, about ${formatSeconds(left * 1000)} left` : ''}`;
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

