/** How the user CLI writes: result lines or one JSON document on stdout, notes and problems on stderr, batch progress on a TTY or as plain lines. */
import { progressLine, settledRows, type CommandIo, type Output, type Progress } from '../sync/output.js';

/**
 * Builds the writer for one run. Every line passes through `redact`, so a token that ends up in a message
 * (an unexpected argument, an echoed URL) is never printed.
 */
export function createOutput(io: CommandIo, options: { json: boolean; quiet: boolean; secret?: string | undefined }): Output {
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
