/** The DeepL provider against a local server speaking the /v2/translate wire format. */
import { describe, expect, it } from 'vitest';
import {
  createDeepLProvider,
  deeplBaseUrl,
  deeplSourceLanguage,
  deeplTargetLanguage,
  type DeepLProviderOptions,
} from '../../server/providers/deepl.js';
import type { ProviderRow } from '../../server/providers/provider.js';
import { deeplError, startMockDeepL, type DeepLRecorded } from '../helpers/mock-providers.js';
import { commonCases, HELLO_ROW, providerError, requestsIn, startForFile } from '../helpers/provider-test-kit.js';

const API_KEY = '0f3c1a2b-1111-2222-3333-444455556666';

const mock = await startForFile(() => startMockDeepL({ apiKey: API_KEY }));
const provider = (opts: Partial<DeepLProviderOptions> = {}) => createDeepLProvider({ baseUrl: mock.url, apiKey: API_KEY, baseDelayMs: 5, ...opts });
const request = requestsIn({ sourceLocale: 'en-US', targetLocale: 'de' });
const common = commonCases({ mock, provider, request });

describe('deepl provider', () => {
  it('sends the key, XML tag handling and the mapped languages, and returns tokens, escapes and outer whitespace intact', async () => {
    const p = provider();
    expect(p.name).toBe('deepl');
    expect(p.instructable).toBe(false);
    const results = await p.translate(request([
      { id: 'a', key: 'greeting', text: 'Hello <ph id="0"/>, welcome' },
      { id: 'b', key: 'terms', text: 'Terms & conditions < 5 > 3' },
      { id: 'c', key: 'padded', text: '  Next\n' },
    ]));
    expect(results).toEqual([
      { id: 'a', ok: true, text: 'DE: HELLO <ph id="0"/>, WELCOME' },
      { id: 'b', ok: true, text: 'DE: TERMS & CONDITIONS < 5 > 3' },
      { id: 'c', ok: true, text: '  DE: NEXT\n' },
    ]);
    expect(mock.requests).toHaveLength(1);
    const sent = mock.requests[0] as DeepLRecorded;
    expect(sent.headers.authorization).toBe(`DeepL-Auth-Key ${API_KEY}`);
    expect(sent.body).toEqual({
      text: ['Hello <ph id="0"/>, welcome', 'Terms &amp; conditions &lt; 5 &gt; 3', 'Next'],
      source_lang: 'EN',
      target_lang: 'DE',
      tag_handling: 'xml',
      ignore_tags: ['ph'],
      preserve_formatting: true,
    });
  });

  it('sends at most 50 texts per request and keeps the caller order, skipping rows with nothing to translate', async () => {
    const rows: ProviderRow[] = Array.from({ length: 121 }, (_, i) => ({ id: `r${i}`, key: `k${i}`, text: i === 7 ? '<ph id="0"/>: 42' : `Line ${i}` }));
    const results = await provider().translate(request(rows, { targetLocale: 'pt' }));
    expect(mock.requests.map((r) => r.body.text.length)).toEqual([50, 50, 20]);
    expect(mock.requests[0]?.body.target_lang).toBe('PT-BR');
    expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(results[7]).toEqual({ id: 'r7', ok: true, text: '<ph id="0"/>: 42' });
    expect(results[120]).toEqual({ id: 'r120', ok: true, text: 'PT-BR: LINE 120' });
  });

  it('passes context and notes through the context parameter, one request per distinct context', async () => {
    const results = await provider().translate(request([
      { id: 'a', key: 'k1', text: 'Open' },
      { id: 'b', key: 'k2', text: 'Close', context: 'toolbar', notes: 'Button label' },
      { id: 'c', key: 'k3', text: 'Save' },
      { id: 'd', key: 'k4', text: 'Quit', context: 'toolbar', notes: 'Button label' },
      // Careful-pass fields an MT engine cannot use are ignored, not an error.
      { id: 'e', key: 'k5', text: 'Help', glossary: [{ term: 'Help', translation: 'Hilfe', forbidden: false }], correction: { previous: 'x', reasons: ['y'] } },
    ]));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(mock.requests.map((r) => [r.body.context, r.body.text])).toEqual([
      [undefined, ['Open', 'Save', 'Help']],
      ['toolbar\nButton label', ['Close', 'Quit']],
    ]);

    mock.requests.length = 0;
    await provider({ sendContext: false }).translate(request([{ id: 'b', key: 'k2', text: 'Close', notes: 'Button label' }]));
    expect(mock.requests[0]?.body.context).toBeUndefined();
  });

  it("sends the style guide's formality for the target locale (or its language) as prefer_more / prefer_less, and none otherwise", async () => {
    const style = { formality: { de: 'informal', fr: 'formal' } as const, tone: 'brief' };
    await provider().translate(request([HELLO_ROW], { targetLocale: 'de-AT', style }));
    await provider().translate(request([HELLO_ROW], { targetLocale: 'fr', style }));
    await provider().translate(request([HELLO_ROW], { targetLocale: 'es', style }));
    expect(mock.requests.map((r) => r.body.formality)).toEqual(['prefer_less', 'prefer_more', undefined]);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    await common.expectWaitsOutRetryAfter(deeplError('Too many requests'), 'DE: HELLO');
  });

  it('retries 5xx with backoff and gives up with a retryable ProviderError', async () => {
    const err = await common.expectGivesUpAfterTwoRetries(503, deeplError('Service unavailable'));
    expect(err.message).toBe('deepl: HTTP 503: Service unavailable (gave up after 3 attempts)');
  });

  it('does not retry 456 (quota exceeded) and says so', async () => {
    mock.script.push({ status: 456, body: deeplError('Quota exceeded') });
    const err = await providerError(provider().translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(false);
    expect(err.message).toBe('deepl: HTTP 456: quota exceeded: the character limit of the DeepL plan is reached (Quota exceeded)');
    expect(mock.requests).toHaveLength(1);
  });

  it('does not retry 403 (bad key), explains the Free/Pro endpoints and never shows the key', async () => {
    const wrongKey = 'aaaabbbb-cccc-dddd-eeee-ffff00001111:fx';
    const err = await providerError(provider({ apiKey: wrongKey }).translate(request([HELLO_ROW])));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('HTTP 403: authorization failed');
    expect(err.message).toContain('Authorization failure, check auth_key');
    expect(err.message).toContain('https://api-free.deepl.com');
    expect(err.message).not.toContain(wrongKey);
    expect(mock.requests[0]?.headers.authorization).toBe(`DeepL-Auth-Key ${wrongKey}`);
  });

  it('shows [redacted] for a key the server echoes', async () => {
    const err = await common.expectEchoedKeyRedacted(deeplError(`Invalid auth_key ${API_KEY}`), API_KEY);
    expect(err.message).toBe('deepl: HTTP 400: Invalid auth_key [redacted]');
  });

  it('stops when the caller aborts', async () => {
    await common.expectStopsWhenCallerAborts();
  });

  it('fails every row, without a request, for a locale DeepL does not support', async () => {
    const rows = [HELLO_ROW, { id: 'b', key: 'k2', text: 'Bye' }];
    expect(await provider().translate(request(rows, { targetLocale: 'ga-IE' }))).toEqual([
      { id: 'a', ok: false, reason: expect.stringContaining("target locale 'ga-IE'") },
      { id: 'b', ok: false, reason: expect.stringContaining("target locale 'ga-IE'") },
    ]);
    expect(await provider().translate(request(rows, { sourceLocale: 'nn' }))).toEqual([
      { id: 'a', ok: false, reason: expect.stringContaining("source locale 'nn'") },
      { id: 'b', ok: false, reason: expect.stringContaining("source locale 'nn'") },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it('picks the Free endpoint for keys ending in :fx', async () => {
    expect(deeplBaseUrl('abc:fx')).toBe('https://api-free.deepl.com');
    expect(deeplBaseUrl('abc')).toBe('https://api.deepl.com');
    const urls: string[] = [];
    const recordingFetch: typeof fetch = async (input) => {
      urls.push(String(input));
      return new Response(JSON.stringify({ translations: [{ detected_source_language: 'EN', text: 'Hallo' }] }), { status: 200 });
    };
    await createDeepLProvider({ apiKey: 'k:fx', fetch: recordingFetch }).translate(request([HELLO_ROW]));
    await createDeepLProvider({ apiKey: 'k', fetch: recordingFetch }).translate(request([HELLO_ROW]));
    expect(urls).toEqual(['https://api-free.deepl.com/v2/translate', 'https://api.deepl.com/v2/translate']);
  });
});

describe('DeepL language codes', () => {
  it.each([
    ['en', 'EN-US'],
    ['en-US', 'EN-US'],
    ['en-GB', 'EN-GB'],
    ['en-AU', 'EN-GB'],
    ['pt', 'PT-BR'],
    ['pt-BR', 'PT-BR'],
    ['pt-PT', 'PT-PT'],
    ['zh', 'ZH-HANS'],
    ['zh-CN', 'ZH-HANS'],
    ['zh-TW', 'ZH-HANT'],
    ['zh-Hant-HK', 'ZH-HANT'],
    ['de-AT', 'DE'],
    ['ja', 'JA'],
    ['nb', 'NB'],
    ['no', 'NB'],
    ['he', 'HE'],
    ['ga', undefined],
    ['tlh', undefined],
    ['not a tag', undefined],
  ])('target %s → %s', (tag, code) => {
    expect(deeplTargetLanguage(tag)).toBe(code);
  });

  it.each([
    ['en-GB', 'EN'],
    ['pt-BR', 'PT'],
    ['zh-TW', 'ZH'],
    ['es-419', 'ES'],
    ['cy', undefined],
  ])('source %s → %s', (tag, code) => {
    expect(deeplSourceLanguage(tag)).toBe(code);
  });
});
