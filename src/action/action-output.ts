/** The CLI's Output for a workflow log: every line through `core.info`, batch progress as plain lines, never the token. */
import * as core from '@actions/core';
import type { Batch } from '../client/types.js';
import { progressLine, settledRows, type Output, type Progress } from '../sync/output.js';

/**
 * Problems go to the log like any line: the Action annotates refused rows and left-out keys itself, from the
 * reports, with the file and line a problem line cannot carry; a second, file-less annotation would repeat them.
 */
export function createActionOutput(secret: string): Output {
  // The runner masks the token once core.setSecret has run; this also covers a log read outside the runner.
  const info = (text: string) => core.info(secret ? text.replaceAll(secret, '***') : text);
  return {
    json: false,
    line: info,
    note: info,
    problem: info,
    document() {},
    progress: (label) => progressLines(label, info),
  };
}

/** A line per status change or per quarter of the rows, so a long batch does not flood the log. */
function progressLines(label: string, info: (text: string) => void): Progress {
  let last: string | undefined;
  return {
    update(batch: Batch) {
      const quarter = batch.rows.total === 0 ? 4 : Math.floor((settledRows(batch) / batch.rows.total) * 4);
      const step = `${batch.status}:${quarter}`;
      if (step === last) return;
      last = step;
      info(progressLine(label, batch));
    },
    end() {},
  };
}
