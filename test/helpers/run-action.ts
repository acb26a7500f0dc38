/**
 * Runs the committed dist/index.js as the runner does: Node 24, inputs as INPUT_* variables, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY as files, and a clean environment (a test inside a real workflow must not write to that
 * workflow's files). The service under test answers from the calling process, so the child never blocks it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DIST = join(import.meta.dirname, '../../dist/index.js');

export interface ActionRun {
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** `env` adds runner variables (GITHUB_EVENT_NAME, GITHUB_REF, GITHUB_API_URL, …); `event` is written to GITHUB_EVENT_PATH. */
export async function runAction(node: string, input: { workspace: string; inputs: Record<string, string>; env?: Record<string, string>; event?: unknown }): Promise<ActionRun> {
  const files = mkdtempSync(join(tmpdir(), 'parlance-action-files-'));
  try {
    const outputFile = join(files, 'output');
    const summaryFile = join(files, 'summary');
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const eventFile = join(files, 'event.json');
    if (input.event !== undefined) writeFileSync(eventFile, JSON.stringify(input.event));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      GITHUB_WORKSPACE: input.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: files,
      ...(input.event !== undefined ? { GITHUB_EVENT_PATH: eventFile } : {}),
      ...input.env,
      // The runner keeps the dash of an input name and upper-cases it: INPUT_FAIL-ON-REFUSED.
      ...Object.fromEntries(Object.entries(input.inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])),
    };
    const child = spawn(node, [DIST], { cwd: input.workspace, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    return { status, stdout, stderr, outputs: parseOutputs(readFileSync(outputFile, 'utf8')), summary: readFileSync(summaryFile, 'utf8') };
  } finally {
    rmSync(files, { recursive: true, force: true });
  }
}

/** GITHUB_OUTPUT as @actions/core writes it: `name<<delimiter`, the value's lines, `delimiter`. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!start) continue;
    const [, name, delimiter] = start;
    const value: string[] = [];
    while (++i < lines.length && lines[i] !== delimiter) value.push(lines[i]!);
    outputs[name!] = value.join('\n');
  }
  return outputs;
}

/** The workflow commands of one kind (`error`, `warning`) on stdout, with their properties and unescaped message. */
export function annotations(run: Pick<ActionRun, 'stdout'>, kind: 'error' | 'warning') {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith(`::${kind}`))
    .map((line) => {
      const [, props = '', message = ''] = /^::\w+ ?([^:]*)::(.*)$/.exec(line) ?? [];
      const properties = Object.fromEntries(props.split(',').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
      return { ...properties, message: message.replaceAll('%0A', '\n').replaceAll('%0D', '\r').replaceAll('%25', '%') } as { file?: string; line?: string; col?: string; message: string };
    });
}
