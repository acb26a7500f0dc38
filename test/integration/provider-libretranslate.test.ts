/** The LibreTranslate provider against a local server speaking its /translate and /languages wire format. */
import { describe, expect, it } from 'vitest';
import { createLibreTranslateProvider, libreTranslateCodes, type LibreTranslateProviderOptions } from '../../server/providers/libretranslate.js';
import type { ProviderRow } from '../../server/providers/provider.js';
import { libreTranslateError, startMockLibreTranslate, type LibreTranslateRecorded } from '../helpers/mock-providers.js';
import { commonCases, HELLO_ROW, providerError, requestsIn, startForFile } from '../helpers/provider-test-kit.js';

const API_KEY = 'lt-key-6f1e2d3c-aaaa-bbbb';

const mock = await startForFile(() => startMockLibreTranslate({ apiKey: API_KEY }));
const provider = (opts: Partial<LibreTranslateProviderOptions> = {}) =>
  createLibreTranslateProvider({ baseUrl: mock.url, apiKey: API_KEY, baseDelayMs: 5, ...opts });
const request = requestsIn({ sourceLocale: 'en-US', targetLocale: 'de-DE' });
const common = commonCases({ mock, provider, request });

describe('libretranslate provider', () => {
  it('sends HTML with the api_key, asks for the languages once, and returns the server text', async () => {
    const p = provider({ baseUrl: `${mock.url}/` });
    expect(p.name).toBe('libretranslate');
    expect(p.instructable).toBe(false);
    const results = await p.translate(request([
      { id: 'a', key: 'greeting', text: 'Hello <ph id="0"/>, welcome' },
      { id: 'b', key: 'terms', text: 'Terms & conditions' },
      { id: 'c', key: 'padded', text: 'Next ' },
    ]));
    // The server's HTML parser rewrites self-closing tokens as open/close pairs; the caller's unmask accepts both.
    expect(results).toEqual([
      { id: 'a', ok: true, text: 'de: HELLO <ph id="0"></ph>, WELCOME' },
      { id: 'b', ok: true, text: 'de: TERMS & CONDITIONS' },
      { id: 'c', ok: true, text: 'de: NEXT ' },
    ]);
    const sent = mock.requests[0] as LibreTranslateRecorded;
    expect(sent.body).toEqual({
      q: ['Hello <ph id="0"/>, welcome', 'Terms &amp; conditions', 'Next'],
      source: 'en',
      target: 'de',
      format: 'html',
      api_key: API_KEY,
    });

    await p.translate(request([{ id: 'a', key: 'k', text: 'Again' }], { targetLocale: 'zh-TW' }));
    expect(mock.requests[1]?.body.target).toBe('zh-Hant');
    expect(mock.languageRequests).toBe(1);
  });

  it('sends no api_key when none is configured', async () => {
    const open = await startMockLibreTranslate();
    try {
      const results = await createLibreTranslateProvider({ baseUrl: open.url }).translate(request([{ id: 'a', key: 'k', text: 'Hi' }]));
      expect(results).toEqual([{ id: 'a', ok: true, text: 'de: HI' }]);
      expect(open.requests[0]?.body.api_key).toBeUndefined();
    } finally {
      await open.close();
    }
  });

  it('sends rows in chunks of batchSize (default 25) and keeps the caller order', async () => {
    const rows: ProviderRow[] = Array.from({ length: 61 }, (_, i) => ({ id: `r${i}`, key: `k${i}`, text: i === 3 ? '' : `Row ${i}` }));
    const results = await provider().translate(request(rows));
    expect(mock.requests.map((r) => r.body.q.length)).toEqual([25, 25, 10]);
    expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(results[3]).toEqual({ id: 'r3', ok: true, text: '' });
    expect(results[60]).toEqual({ id: 'r60', ok: true, text: 'de: ROW 60' });
  });

  it('waits for Retry-After on 429 ("Slowdown"), then succeeds', async () => {
    await common.expectWaitsOutRetryAfter(libreTranslateError('Slowdown: 20 per 1 minute'), 'de: HELLO');
  });

  it('retries 500 with backoff and gives up with a retryable ProviderError', async () => {
    const err = await common.expectGivesUpAfterTwoRetries(500, libreTranslateError('Cannot translate text: model crashed'));
    expect(err.message).toBe('libretranslate: HTTP 500: Cannot translate text: model crashed (gave up after 3 attempts)');
  });

  it('does not retry 403 (invalid key)', async () => {
    const err = await providerError(provider({ apiKey: 'lt-wrong-key' }).translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(false);
    expect(err.message).toBe('libretranslate: HTTP 403: Invalid API key');
    expect(mock.requests).toHaveLength(1);
  });

  it('shows [redacted] for a key the server echoes', async () => {
    const body = libreTranslateError(`Invalid request: api_key ${API_KEY} exceeds its character limit`);
    const err = await common.expectEchoedKeyRedacted(body, API_KEY);
    expect(err.message).toBe('libretranslate: HTTP 400: Invalid request: api_key [redacted] exceeds its character limit');
  });

  it('stops when the caller aborts', async () => {
    await common.expectStopsWhenCallerAborts();
  });

  it('fails every row, without a translate request, for a locale the server has no model for', async () => {
    const rows = [HELLO_ROW, { id: 'b', key: 'k2', text: 'Bye' }];
    expect(await provider().translate(request(rows, { targetLocale: 'ko' }))).toEqual([
      { id: 'a', ok: false, reason: expect.stringContaining("into target locale 'ko'") },
      { id: 'b', ok: false, reason: expect.stringContaining("into target locale 'ko'") },
    ]);
    expect(await provider().translate(request(rows, { sourceLocale: 'sv' }))).toEqual([
      { id: 'a', ok: false, reason: expect.stringMatching(/from source locale 'sv' \(it offers: en, de, .*\)/) },
      { id: 'b', ok: false, reason: expect.stringContaining("source locale 'sv'") },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it("uses an older server's codes for Chinese and Portuguese variants", async () => {
    const old = await startMockLibreTranslate({ languages: ['en', 'zh', 'zt', 'pt'] });
    try {
      const p = createLibreTranslateProvider({ baseUrl: old.url });
      await p.translate(request([{ id: 'a', key: 'k', text: 'Hi' }], { targetLocale: 'zh-TW' }));
      await p.translate(request([{ id: 'a', key: 'k', text: 'Hi' }], { targetLocale: 'zh' }));
      await p.translate(request([{ id: 'a', key: 'k', text: 'Hi' }], { targetLocale: 'pt-BR' }));
      expect(old.requests.map((r) => r.body.target)).toEqual(['zt', 'zh', 'pt']);
    } finally {
      await old.close();
    }
  });

  it('maps BCP-47 tags to candidate codes, preferred first', () => {
    expect(libreTranslateCodes('de-AT')).toEqual(['de']);
    expect(libreTranslateCodes('zh-HK')).toEqual(['zh-Hant', 'zt']);
    expect(libreTranslateCodes('zh-SG')).toEqual(['zh-Hans', 'zh']);
    expect(libreTranslateCodes('pt')).toEqual(['pt-BR', 'pt']);
    expect(libreTranslateCodes('pt-PT')).toEqual(['pt']);
    expect(libreTranslateCodes('no')).toEqual(['nb']);
    expect(libreTranslateCodes('not a tag')).toEqual([]);
  });
});
