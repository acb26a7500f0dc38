/** `parlance release`: publish the project's translations as a numbered release for the CDN and storage targets, list and show releases, rotate the bundle id. */
import { z } from 'zod';
import type { Release } from '../../client/types.js';
import { ConfigNotFoundError } from '../../project-config/config-file-error.js';
import { serviceUrl, type CommandContext } from '../../sync/command-context.js';
import { CommandError } from '../../sync/command-error.js';
import { count } from '../../sync/output.js';
import { about } from '../../sync/subject-error.js';
import { localeTags, noMorePositionals, parseFlags, positional, type Command } from './command.js';

const USAGE = `parlance release publish [--locale de --locale fr]
       parlance release list [--limit <n>]
       parlance release show <number|latest|release id>
       parlance release rotate-bundle-id`;

const Flags = z.object({
  locale: localeTags('--locale'),
  limit: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const limit = Number(value);
      if (Number.isInteger(limit) && limit >= 1 && limit <= 100) return limit;
      ctx.addIssue({ code: 'custom', message: `Invalid --limit '${value}'. Expected a whole number from 1 to 100.` });
      return z.NEVER;
    }),
});

export const releaseCommand: Command = {
  name: 'release',
  summary: 'publish [--locale de] | list | show <number|latest> | rotate-bundle-id',
  help: `Usage: ${USAGE}

A release is an immutable, numbered snapshot of the project's accepted translations (rows held for review are
left out). Publishing prints each locale's CDN URL, /cdn/<bundle id>/<number>/<locale>.json on the service, and
queues a sync to every enabled storage target; when nothing changed since the latest release, no new one is
numbered and that release is shown. Apps that follow new releases read /cdn/<bundle id>/latest/manifest.json.

  --locale      publish only these locales (repeatable, or comma-separated); default: the source locale and
                every target locale
  --limit       how many releases to list, newest first (1-100, default 20)

rotate-bundle-id replaces the bundle id: every CDN URL with the old one answers 404 from then on, and the
releases are served under the new one. publish and rotate-bundle-id need a token with 'manage', list and
show need 'read'.`,
  options: { locale: { type: 'string', multiple: true }, limit: { type: 'string' } },
  async run(context, { values, positionals }) {
    const flags = parseFlags(Flags, values);
    const { out } = context;
    const action = positional(positionals, 0, `Missing the release action. Usage: ${USAGE}`);
    if (flags.locale !== undefined && action !== 'publish') throw new CommandError(`--locale is an option of 'parlance release publish', not of '${action}'.`);
    if (flags.limit !== undefined && action !== 'list') throw new CommandError(`--limit is an option of 'parlance release list', not of '${action}'.`);
    switch (action) {
      case 'publish': {
        noMorePositionals(positionals, 1, 'parlance release publish [--locale de --locale fr]');
        const client = context.client();
        const published = await about('publishing a release', () => client.publishRelease(flags.locale ? { locales: flags.locale } : {}));
        out.document(published);
        const { release } = published;
        const base = cdnBase(context, values);
        out.line(
          published.created
            ? `Published release ${release.number} (new): ${count(release.locales.length, 'locale')}, ${release.id}`
            : `Release ${release.number} unchanged: nothing changed since it was published at ${release.created_at}, so no new release was numbered.`,
        );
        for (const line of releaseLines(release, base)) out.line(line);
        const bundleId = bundleIdOf(release);
        if (bundleId) out.line(`Latest: ${latestManifestUrl(base, bundleId)}`);
        return 0;
      }
      case 'list': {
        noMorePositionals(positionals, 1, 'parlance release list [--limit <n>]');
        const client = context.client();
        const page = await about('listing releases', () => client.releases(flags.limit !== undefined ? { limit: flags.limit } : {}));
        out.document(page);
        if (page.items.length === 0) out.line("(no releases yet: publish one with 'parlance release publish')");
        const width = Math.max(0, ...page.items.map((release) => String(release.number).length));
        for (const release of page.items) out.line(releaseListLine(release, width));
        if (page.next_cursor !== null) out.line(`(older releases not shown: raise --limit, up to 100)`);
        out.line(`Bundle id: ${page.bundle_id}`);
        if (page.items.length > 0) out.line(`Latest: ${latestManifestUrl(cdnBase(context, values), page.bundle_id)}`);
        return 0;
      }
      case 'show': {
        const id = positional(positionals, 1, 'Missing the release. Usage: parlance release show <number|latest|release id>');
        noMorePositionals(positionals, 2, 'parlance release show <number|latest|release id>');
        const client = context.client();
        const release = await about(`release ${id}`, () => client.release(id));
        out.document(release);
        out.line(releaseHead(release));
        for (const line of releaseLines(release, cdnBase(context, values))) out.line(line);
        return 0;
      }
      case 'rotate-bundle-id': {
        noMorePositionals(positionals, 1, 'parlance release rotate-bundle-id');
        const client = context.client();
        const rotated = await about('rotating the bundle id', () => client.rotateBundleId());
        out.document(rotated);
        out.line(`New bundle id: ${rotated.bundle_id}`);
        out.line('Every CDN URL with the old bundle id answers 404 from now on (caches may serve what they hold until it expires);');
        out.line('the releases are kept and served under the new id. Point the apps that read the CDN at:');
        out.line(`  ${latestManifestUrl(cdnBase(context, values), rotated.bundle_id)}`);
        return 0;
      }
      default:
        throw new CommandError(`Unknown release action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/**
 * The service's address, which the CDN paths of the API are relative to: chosen as the client chooses it (--service,
 * else parlance.yml's service, else PARLANCE_URL, else the default), and like the client, without a parlance.yml.
 */
function cdnBase(context: CommandContext, values: Record<string, unknown>): string {
  const flag = typeof values.service === 'string' && values.service !== '' ? values.service : undefined;
  const fromConfig = () => {
    try {
      return context.config().config.service;
    } catch (error) {
      if (values.config === undefined && error instanceof ConfigNotFoundError) return undefined;
      throw error;
    }
  };
  return serviceUrl(flag, fromConfig, context.io.env.PARLANCE_URL);
}

function latestManifestUrl(base: string, bundleId: string): string {
  return `${base}/cdn/${bundleId}/latest/manifest.json`;
}

/** The bundle id in a release's CDN paths (`/cdn/{bundle_id}/{number}/…`). */
function bundleIdOf(release: Release): string | undefined {
  const path = release.manifest?.path ?? release.locales[0]?.path;
  return path === undefined ? undefined : /^\/cdn\/([^/]+)\//.exec(path)?.[1];
}

/** `Release 3  rel_…  2026-01-01T10:00:00.000Z  batch b_…`. */
export function releaseHead(release: Release): string {
  return `Release ${release.number}  ${release.id}  ${release.created_at}  ${release.trigger}${release.batch_id ? ` ${release.batch_id}` : ''}`;
}

/** `  3  2026-01-01T10:00:00.000Z  api    en, de, fr`. */
export function releaseListLine(release: Release, width: number): string {
  return `  ${String(release.number).padStart(width)}  ${release.created_at}  ${release.trigger.padEnd(5)}  ${release.locales.map((l) => l.locale).join(', ')}`;
}

/** Each locale with its key count and CDN URL, the manifest's URL, and the files when the release carries them. */
export function releaseLines(release: Release, base: string): string[] {
  const rows: [string, string, string][] = [
    ...release.locales.map((l): [string, string, string] => [l.locale, count(l.keys, 'key'), `${base}${l.path}`]),
    ...(release.manifest ? [['manifest', '', `${base}${release.manifest.path}`] as [string, string, string]] : []),
  ];
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const keysWidth = Math.max(...rows.map(([, keys]) => keys.length));
  return [
    ...rows.map(([label, keys, url]) => `  ${label.padEnd(labelWidth)}  ${keys.padStart(keysWidth)}  ${url}`),
    ...(release.files.length > 0 ? [`  and ${count(release.files.length, 'file')} in their source formats, listed in the manifest`] : []),
  ];
}
