/**
 * POST /hooks/integrations/{connection id}: the remote systems' change notifications. Public and unauthenticated: the
 * connector verifies each one against the connection's webhook secret (a signature or a token, as the vendor sends
 * it), and a verified notification about source strings queues a sync. Unknown, removed or disabled connections all
 * answer the same 404.
 */
import { Hono } from 'hono';
import type { Logger } from '../logger.js';
import type { ConnectionsService } from './connections-service.js';

/** Notifications are small (a push event, an entry id); a larger body is refused before it is read whole. */
export const HOOK_BODY_BYTES = 1024 * 1024;
const MAX_BODY_BYTES = HOOK_BODY_BYTES;

export function hookRoutes(deps: { connections: ConnectionsService; log: Logger }) {
  const app = new Hono();
  app.post('/integrations/:id', async (c) => {
    const id = c.req.param('id');
    const gone = () => c.json({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'No integration connection at this address.' }, 404, { 'content-type': 'application/problem+json' });
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_BODY_BYTES) return c.json({ status: 413, code: 'payload_too_large', detail: `Notifications are limited to ${MAX_BODY_BYTES} bytes.` }, 413);
    const opened = await deps.connections.open(id).catch(() => undefined);
    if (!opened || !opened.row.enabled || !opened.connector.verifyWebhook) return gone();
    const body = new Uint8Array(await c.req.arrayBuffer());
    if (body.byteLength > MAX_BODY_BYTES) return c.json({ status: 413, code: 'payload_too_large', detail: `Notifications are limited to ${MAX_BODY_BYTES} bytes.` }, 413);
    const url = new URL(c.req.url);
    const verdict = opened.connector.verifyWebhook({ headers: c.req.raw.headers, body, method: c.req.method, path: `${url.pathname}${url.search}` }, opened.webhookSecret, opened.settings);
    if (verdict.handshake !== undefined) {
      // A value for a person to confirm: kept for the connection's managers, never logged or echoed.
      await deps.connections.recordHandshake(id, verdict.handshake);
      deps.log.info('integration webhook handshake received', { connection: id, connector: opened.row.connector });
      return c.json({ received: true, detail: "Kept for the connection's managers: GET the connection (webhook_handshake)." }, 200);
    }
    if (!verdict.verified) {
      deps.log.warn('integration notification refused', { connection: id, reason: verdict.reason });
      return c.json({ status: 401, code: 'signature_invalid', detail: verdict.reason ?? 'The notification is not signed with this connection\'s webhook secret.' }, 401);
    }
    const empty = opened.connector.acknowledge === 'empty';
    if (!verdict.sync) return empty ? c.body(null, 204) : c.json({ sync: null, reason: verdict.reason ?? 'not about source strings' }, 202);
    const sync = await deps.connections.syncNow(opened.row.project_id, opened.row.connector, id, 'webhook');
    return empty ? c.body(null, 204) : c.json({ sync }, 202);
  });
  return app;
}
