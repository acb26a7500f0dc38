/**
 * The generic HTTP connector ("any HTTP service": n8n, Zapier, Make): the connector against a service on 127.0.0.1
 * (signed requests both ways, pagination by `next`, a malformed document, refused signatures, notifications), then
 * the connector framework's whole acceptance scenario through the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorError } from '../../server/integrations/connector-error.js';
import { http, signParlance, verifyParlanceSignature } from '../../server/integrations/connectors/http.js';
import { connectorAcceptance, SEED } from '../helpers/connector-kit.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';
import { startHttpServiceMock, type HttpServiceMock } from '../helpers/connector-mocks/http-service.js';

const SECRET = 'signing-secret-0123456789';

const context = (mock: HttpServiceMock, secrets: Record<string, string> = { signing_secret: SECRET }) => connectorContext(http, mock.settings, secrets, { timeoutMs: 2000, connectionId: 'con_test' });

describe('the HTTP connector against a service', () => {
  let mock: HttpServiceMock;
  beforeAll(async () => {
    mock = await startHttpServiceMock({ signingSecret: SECRET });
  });
  afterAll(async () => mock.close());

  it('lists every page, signed, with the locales the service takes', async () => {
    const listing = await http.list(context(mock));
    const unit = listing.units[0]!;
    expect(unit.kind).toBe('strings');
    if (unit.kind !== 'strings') return;
    expect(unit.strings.map((s) => s.key)).toEqual(SEED.map((s) => s.id));
    expect(unit.locales).toEqual(['de', 'fr']);
    expect(listing.note).toContain('does not take ja');
    expect(mock.requests.filter((r) => r.path === '/source').length).toBe(2);
    expect(mock.requests.every((r) => r.signed)).toBe(true);
  });

  it('delivers translations signed, and a second delivery of the same is harmless', async () => {
    const writeBack = { strings: [{ path: 'strings', key: 'cart', locale: 'de', text: 'Warenkorb leer' }], files: [], batches: [], problems: [] };
    expect((await http.write!(context(mock), writeBack)).written).toBe(1);
    expect((await http.write!(context(mock), writeBack)).written).toBe(1);
    expect(await mock.translation('cart', 'de')).toBe('Warenkorb leer');
    const listing = await http.list(context(mock));
    const unit = listing.units[0]!;
    expect(unit.kind === 'strings' && unit.strings.find((s) => s.key === 'cart')?.translations).toEqual({ de: 'Warenkorb leer' });
  });

  it('a refused signature is an auth error quoting the service', async () => {
    const error = await rejection(http.list(context(mock, { signing_secret: 'another-secret-entirely' })));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/refused the credentials \(HTTP 401: signature rejected/);
  });

  it('a service that is down is unavailable, and a page that is not a source document names the field', async () => {
    await mock.stop();
    const down = await http.list(context(mock)).catch((e: unknown) => e);
    expect((down as ConnectorError).kind).toBe('unavailable');
    await mock.start();
    const bad = { ...context(mock) };
    bad.settings = { ...bad.settings, source_url: `${mock.url}/deliver` };
    const error = await http.list(bad).catch((e: unknown) => e);
    expect((error as ConnectorError).kind).not.toBe('unavailable');
  });

  it('verifies notifications: signed, forged, stale', () => {
    const body = new TextEncoder().encode('{"event":"strings.changed"}');
    const request = (signature: string) => ({ headers: new Headers({ 'x-parlance-signature': signature }), body });
    expect(http.verifyWebhook!(request(signParlance('hook-secret', body)), 'hook-secret', {} as never).verified).toBe(true);
    expect(http.verifyWebhook!(request(signParlance('other', body)), 'hook-secret', {} as never).verified).toBe(false);
    const stale = verifyParlanceSignature(signParlance('hook-secret', body, Math.floor(Date.now() / 1000) - 600), 'hook-secret', body);
    expect(stale.ok).toBe(false);
  });
});

connectorAcceptance('the HTTP connector through the service', () => startHttpServiceMock({ signingSecret: SECRET }), { direction: 'two_way' });
