/**
 * "Any HTTP service": the automation connector n8n, Zapier, Make (or a team's own endpoint) can stand behind.
 * Parlance GETs the source strings from a JSON URL and POSTs the translations to a delivery URL; both requests are
 * signed with the connection's signing secret, and the service may notify Parlance of changes with a request signed
 * with the webhook secret. One signature scheme for all three, so a recipe verifies them with one function:
 *
 *   X-Parlance-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
 *
 * Source document (GET source_url): `{"strings": [{"key", "source", "notes"?, "context"?, "max_length"?, "plurals"?,
 * "translations"?: {"de": "…"}}], "locales"?: ["de", "fr"], "next"?: "<url of the next page>"}`.
 * Delivery (POST delivery_url): `{"connection_id", "batch_id", "translations": [{"key", "locale", "text", "plurals"?}]}`
 * in requests of at most 500 translations; any 2xx answer accepts them.
 */
import { createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { PLURAL_CATEGORIES, type PluralForms } from '../../../src/core/formats/codec.js';
import type { Connector, RemoteString, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, readJson } from '../connector-http.js';
import { sameLocale } from '../remote-locales.js';
import { sameSecret } from '../same-secret.js';

const Settings = z
  .object({
    source_url: z.url({ protocol: /^https?$/, error: "expected an http:// or https:// URL" }).max(2000).openapi({ description: 'Where Parlance GETs the source strings (JSON, see the README); pages follow `next`.' }),
    delivery_url: z.url({ protocol: /^https?$/, error: "expected an http:// or https:// URL" }).max(2000).optional().openapi({ description: 'Where Parlance POSTs translations. Absent: the connection only imports.' }),
    name: z.string().min(1).max(100).regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dot, dash or underscore').default('strings').openapi({ description: "The place's name in Parlance's paths. Default `strings`." }),
  })
  .strict();

const Secrets = z
  .object({
    signing_secret: z.string().min(16).max(200).openapi({ description: 'Signs every request Parlance sends (X-Parlance-Signature); the service checks it.' }),
    authorization: z.string().min(1).max(2000).optional().openapi({ description: 'Sent as the Authorization header too, for services that want one (n8n header auth, a Make API key).' }),
  })
  .strict();

type HttpSettings = z.infer<typeof Settings>;
type HttpSecrets = z.infer<typeof Secrets>;

const PluralsSchema = z.partialRecord(z.enum(PLURAL_CATEGORIES), z.string());
const SourceDocument = z.object({
  strings: z.array(
    z.object({
      key: z.string().min(1).max(1000),
      source: z.string(),
      notes: z.string().optional(),
      context: z.string().optional(),
      max_length: z.number().int().positive().optional(),
      plurals: PluralsSchema.optional(),
      translations: z.record(z.string(), z.string()).optional(),
    }),
  ),
  locales: z.array(z.string()).optional(),
  next: z.url().nullable().optional(),
});

/** Signature tolerance: a notification older than this is refused as a replay. */
const TOLERANCE_SECONDS = 300;
const DELIVERY_CHUNK = 500;
const MAX_PAGES = 1000;

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signParlance(secret: string, body: string | Uint8Array, now = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${now}.`).update(body).digest('hex');
  return `t=${now},v1=${mac}`;
}

/** Checks an X-Parlance-Signature header: the HMAC and the time, within five minutes either way. */
export function verifyParlanceSignature(header: string | null, secret: string, body: Uint8Array, now = Math.floor(Date.now() / 1000)): { ok: true } | { ok: false; reason: string } {
  if (!header) return { ok: false, reason: 'No X-Parlance-Signature header.' };
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1');
  if (!Number.isInteger(t) || !v1) return { ok: false, reason: "X-Parlance-Signature must read 't=<unix seconds>,v1=<hex HMAC-SHA256>'." };
  if (Math.abs(now - t) > TOLERANCE_SECONDS) return { ok: false, reason: `The signature's time (${t}) is more than ${TOLERANCE_SECONDS} s from now; send a fresh one.` };
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  if (!sameSecret(v1, expected)) return { ok: false, reason: "The signature does not match the body and this connection's webhook secret." };
  return { ok: true };
}

function headers(secrets: HttpSecrets, body: string): Record<string, string> {
  return { 'x-parlance-signature': signParlance(secrets.signing_secret, body), ...(secrets.authorization ? { authorization: secrets.authorization } : {}) };
}

/** The project's locale a service's tag names, up to case and `_`/`-` (`sameLocale`; the service's order is kept, so not `matchLocales`). */
function projectLocale(tag: string, targets: readonly string[]): string | undefined {
  return targets.find((t) => sameLocale(t, tag));
}

/** What a delivery's answer may say: the translations the service did not take (anything else in it is ignored). */
const DeliveryAnswer = z.object({ skipped: z.array(z.object({ key: z.string(), locale: z.string() }).loose()).max(DELIVERY_CHUNK).optional() }).loose().optional();

export const http: Connector<HttpSettings, HttpSecrets> = {
  id: 'http',
  name: 'Any HTTP service (n8n, Zapier, Make)',
  category: 'automation',
  direction: 'two_way',
  summary: 'Source strings from a JSON URL, translations POSTed to a delivery URL, both signed; recipes for n8n, Zapier and Make.',
  settings: Settings,
  secrets: Secrets,
  webhooks: 'X-Parlance-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with the webhook secret',

  async list(ctx) {
    const strings: RemoteString[] = [];
    let remoteLocales: string[] | undefined;
    let url: string | null | undefined = ctx.settings.source_url;
    for (let page = 1; url; page++) {
      if (page > MAX_PAGES) throw new ConnectorError('config', `The source at ${ctx.settings.source_url} gave more than ${MAX_PAGES} pages; check its 'next' links.`);
      const what = `Reading the source strings from ${url}`;
      const response = await ctx.http.request(url, { headers: headers(ctx.secrets, '') });
      if (!response.ok) throw await failure(response, what);
      let parsed: z.infer<typeof SourceDocument>;
      try {
        parsed = SourceDocument.parse(await response.json());
      } catch (error) {
        const issue = error instanceof z.ZodError ? error.issues[0] : undefined;
        throw new ConnectorError('config', `${what}: the answer is not a source document${issue ? ` (${issue.path.join('.') || 'body'}: ${issue.message})` : ''}. Expected {"strings": [{"key", "source", …}], "next"?}.`);
      }
      remoteLocales = parsed.locales ?? remoteLocales;
      for (const s of parsed.strings) {
        const translations: Record<string, string> = {};
        for (const [tag, text] of Object.entries(s.translations ?? {})) {
          const locale = projectLocale(tag, ctx.targetLocales);
          if (locale) translations[locale] = text;
        }
        strings.push({
          key: s.key,
          source: s.plurals?.other ?? s.source,
          ...(s.plurals ? { plurals: s.plurals as PluralForms } : {}),
          ...(s.notes ? { notes: s.notes } : {}),
          ...(s.context ? { context: s.context } : {}),
          ...(s.max_length ? { maxLength: s.max_length } : {}),
          translations,
        });
      }
      url = parsed.next;
    }
    const locales = remoteLocales ? remoteLocales.map((t) => projectLocale(t, ctx.targetLocales)).filter((t): t is string => t !== undefined) : [...ctx.targetLocales];
    const skipped = ctx.targetLocales.filter((t) => !locales.includes(t));
    return {
      units: [{ kind: 'strings', path: ctx.settings.name, strings, locales: ctx.settings.delivery_url ? locales : [] }],
      note: `read ${strings.length} string(s)${skipped.length ? `; the service does not take ${skipped.join(', ')}` : ''}`,
    };
  },

  async write(ctx, writeBack) {
    const url = ctx.settings.delivery_url;
    if (!url || writeBack.strings.length === 0) return { written: 0 };
    const skipped: { path: string; key: string; locale: string }[] = [];
    for (let i = 0; i < writeBack.strings.length; i += DELIVERY_CHUNK) {
      const chunk = writeBack.strings.slice(i, i + DELIVERY_CHUNK);
      const body = JSON.stringify({
        connection_id: ctx.connectionId,
        batch_id: writeBack.batches[0]?.id ?? null,
        translations: chunk.map((t) => ({ key: t.key, locale: t.locale, text: t.text, ...(t.plurals ? { plurals: t.plurals } : {}) })),
      });
      const response = await ctx.http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers(ctx.secrets, body) }, body });
      const what = `Delivering ${chunk.length} translation(s) to ${url}`;
      if (!response.ok) throw await failure(response, what);
      // The service may name translations it did not take (someone changed them there): they are not recorded as written.
      let said: unknown;
      if ((response.headers.get('content-type') ?? '').includes('json')) said = await readJson(response, what, { maxBytes: 4 * 1024 * 1024 }).catch(() => undefined);
      else await response.body?.cancel();
      const answer = DeliveryAnswer.safeParse(said);
      const sent = new Set(chunk.map((t) => `${t.key}\u0000${t.locale}`));
      for (const s of answer.success ? (answer.data?.skipped ?? []) : []) {
        if (sent.has(`${s.key}\u0000${s.locale}`)) skipped.push({ path: ctx.settings.name, key: s.key, locale: s.locale });
      }
    }
    return { written: writeBack.strings.length - skipped.length, ...(skipped.length > 0 ? { skipped, note: `the service did not take ${skipped.length}: ${skipped.slice(0, 10).map((s) => `${s.key} (${s.locale})`).join(', ')}` } : {}) };
  },

  verifyWebhook(request: WebhookRequest, secret: string): WebhookVerdict {
    const checked = verifyParlanceSignature(request.headers.get('x-parlance-signature'), secret, request.body);
    return checked.ok ? { verified: true, sync: true } : { verified: false, sync: false, reason: checked.reason };
  },
};
