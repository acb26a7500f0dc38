/** What the console's browser tests share: `parlance start` in a process of its own, and a page check with axe-core. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { SERVICE_NODE_FLAGS } from './parlance-process.js';
import { dropBackend } from './service.js';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'console');
export const PASSWORD = 'correct horse battery staple';
const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface Service {
  url: string;
  child: ChildProcess;
  output: () => string;
  env: Record<string, string>;
}

/** `node bin/parlance.js start`, as `npm start` runs it, on a free port; resolves with the URL it prints. */
export async function startParlance(env: Record<string, string>): Promise<Service> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name] !== undefined) base[name] = process.env[name]!;
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, join(ROOT, 'bin', 'parlance.js'), 'start'], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`parlance start printed no URL within 60 s:\n${output}`)), 60_000);
    const look = () => {
      const match = /Parlance is running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`parlance start exited with code ${code}:\n${output}`));
    });
  });
  return { url, child, output: () => output, env };
}

export async function stopParlance(service: Service | undefined) {
  if (!service) return;
  if (service.child.exitCode === null) {
    const closed = new Promise((resolve) => service.child.once('close', resolve));
    service.child.kill('SIGTERM');
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
  }
  await dropBackend(service.env);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

export async function settled(page: Page) {
  await page.locator('#page-title').waitFor();
  await expect.poll(() => page.locator('.loading').count(), { timeout: 15_000 }).toBe(0);
}

/** Waits for the page to settle, saves its screenshot, and fails on any serious or critical axe-core violation. */
export async function checkPage(page: Page, name: string) {
  await settled(page);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  // The CSP allows no inline script, so axe goes in through the DevTools protocol (page.evaluate), not a <script> tag.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking, `axe-core on ${name}: ${JSON.stringify(blocking, null, 2)}`).toEqual([]);
}

/** Debian's Chromium, headless, with nothing that reaches the network by itself. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Records what the browser reports into `problems`: script errors, and anything the Content-Security-Policy blocked. */
export function watchProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
}

/** Signs up owner@example.com, who owns the demo project of a first start, and returns that project's id from the overview's URL. */
export async function signUpDemoOwner(page: Page): Promise<string> {
  await page.goto('/#/sign-up');
  await page.getByLabel('Email', { exact: true }).fill('owner@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => page.locator('#page-title').textContent(), { timeout: 15_000 }).toBe('Demo: overview');
  return /#\/p\/([^/?]+)/.exec(page.url())![1]!;
}
