/** Webhook signing against the reference `standardwebhooks` library, both ways, and the rejections a receiver relies on. */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSecret, signature, signatureHeader, verifyWebhook, WebhookVerificationError, webhookHeaders } from '../../server/webhooks/signing.js';

const MSG_ID = 'msg_2LJ3bQhVfWbDzYwKfHk4Zx';
const BODY = JSON.stringify({ type: 'batch.completed', data: { batchId: 'bat_01', locales: ['de', 'fr-CA'], note: 'Grüße – 完了' } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

function rejection(run: () => void): WebhookVerificationError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return err as WebhookVerificationError;
  }
  throw new Error('expected verifyWebhook to throw');
}

describe('generateSecret', () => {
  it('is whsec_ and 24 random bytes in base64, accepted by the reference library', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(() => new Webhook(secret)).not.toThrow();
    expect(generateSecret()).not.toBe(secret);
  });
});

describe('signature', () => {
  it('matches the reference library byte for byte', () => {
    const secret = generateSecret();
    const timestamp = 1_767_225_600;
    expect(signature(secret, MSG_ID, timestamp, BODY)).toBe(new Webhook(secret).sign(MSG_ID, new Date(timestamp * 1000), BODY));
  });

  it('matches the Standard Webhooks specification example', () => {
    // The test vector in the specification and every official library's test suite.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('refuses a fractional timestamp and a secret that is not base64', () => {
    const secret = generateSecret();
    expect(() => signature(secret, MSG_ID, 1_767_225_600.5, BODY)).toThrow(/whole unix seconds, got 1767225600.5/);
    expect(() => signature('whsec_not base64!', MSG_ID, 1_767_225_600, BODY)).toThrow(/expected 'whsec_' followed by base64/);
  });
});

describe('webhookHeaders', () => {
  it('carries id, timestamp, signature, JSON content type and our user agent', () => {
    const secret = generateSecret();
    const headers = webhookHeaders([secret], MSG_ID, 1_767_225_600, BODY);
    expect(headers).toEqual({
      'webhook-id': MSG_ID,
      'webhook-timestamp': '1767225600',
      'webhook-signature': signature(secret, MSG_ID, 1_767_225_600, BODY),
      'content-type': 'application/json',
      'user-agent': 'Parlance-Webhooks/1',
    });
  });

  it('refuses to sign with no secret', () => {
    expect(() => signatureHeader([], MSG_ID, 1_767_225_600, BODY)).toThrow(`No secret to sign webhook message ${MSG_ID} with`);
  });
});

describe('our signatures, the reference verifier', () => {
  it('verifies and returns the parsed body', () => {
    const secret = generateSecret();
    const headers = webhookHeaders([secret], MSG_ID, nowSeconds(), BODY);
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('verifies a rotation header with either the old or the new secret, and not with a third', () => {
    const [oldSecret, newSecret, otherSecret] = [generateSecret(), generateSecret(), generateSecret()];
    const headers = webhookHeaders([newSecret, oldSecret], MSG_ID, nowSeconds(), BODY);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(newSecret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(otherSecret).verify(BODY, headers)).toThrow('No matching signature found');
  });
});

describe('the reference signatures, our verifier', () => {
  it('accepts a message signed by the reference library', () => {
    const secret = generateSecret();
    const now = new Date();
    const headers = {
      'webhook-id': MSG_ID,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(MSG_ID, now, BODY),
    };
    expect(() => verifyWebhook(secret, headers, BODY)).not.toThrow();
  });

  it('accepts a rotation header with either secret and header names in any case', () => {
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    const now = new Date();
    const headers = {
      'Webhook-Id': MSG_ID,
      'Webhook-Timestamp': String(Math.floor(now.getTime() / 1000)),
      'Webhook-Signature': `${new Webhook(newSecret).sign(MSG_ID, now, BODY)} ${new Webhook(oldSecret).sign(MSG_ID, now, BODY)}`,
    };
    expect(() => verifyWebhook(oldSecret, headers, BODY)).not.toThrow();
    expect(() => verifyWebhook(newSecret, headers, BODY)).not.toThrow();
  });
});

describe('verifyWebhook rejections', () => {
  const secret = generateSecret();
  const now = 1_767_225_600;
  const signed = (timestamp = now, body = BODY) => webhookHeaders([secret], MSG_ID, timestamp, body);

  it('accepts the untouched message at the edges of the tolerance', () => {
    expect(() => verifyWebhook(secret, signed(now - 300), BODY, { now })).not.toThrow();
    expect(() => verifyWebhook(secret, signed(now + 300), BODY, { now })).not.toThrow();
  });

  it('rejects a tampered body', () => {
    const err = rejection(() => verifyWebhook(secret, signed(), BODY.replace('bat_01', 'bat_02'), { now }));
    expect(err.message).toBe(`No signature in webhook-signature matches message ${MSG_ID} (1 checked)`);
  });

  it('rejects a signature for another message id', () => {
    const headers = { ...signed(), 'webhook-id': 'msg_other' };
    expect(rejection(() => verifyWebhook(secret, headers, BODY, { now })).message).toMatch(/matches message msg_other/);
  });

  it('rejects an old timestamp, even with a valid signature', () => {
    const err = rejection(() => verifyWebhook(secret, signed(now - 301), BODY, { now }));
    expect(err.message).toBe(`webhook-timestamp ${now - 301} is 301 s old; tolerance is 300 s`);
  });

  it('rejects a future timestamp', () => {
    const err = rejection(() => verifyWebhook(secret, signed(now + 3600), BODY, { now }));
    expect(err.message).toBe(`webhook-timestamp ${now + 3600} is 3600 s in the future; tolerance is 300 s`);
  });

  it('honours a custom tolerance', () => {
    expect(() => verifyWebhook(secret, signed(now - 60), BODY, { now, toleranceSeconds: 30 })).toThrow(/60 s old; tolerance is 30 s/);
  });

  it('rejects a timestamp that is not unix seconds', () => {
    const headers = { ...signed(), 'webhook-timestamp': '2026-01-01T00:00:00Z' };
    expect(rejection(() => verifyWebhook(secret, headers, BODY, { now })).message).toBe("Invalid webhook-timestamp '2026-01-01T00:00:00Z': expected unix seconds");
  });

  it('rejects the wrong secret', () => {
    expect(() => verifyWebhook(generateSecret(), signed(), BODY, { now })).toThrow(WebhookVerificationError);
  });

  it('rejects a signature of another version', () => {
    const headers = { ...signed(), 'webhook-signature': signed()['webhook-signature']!.replace('v1,', 'v1a,') };
    expect(() => verifyWebhook(secret, headers, BODY, { now })).toThrow(/No signature in webhook-signature matches/);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('rejects a message without %s', (name) => {
    const headers: Record<string, string | undefined> = { ...signed() };
    delete headers[name];
    expect(rejection(() => verifyWebhook(secret, headers, BODY, { now })).message).toBe(`Missing ${name} header`);
  });

  it('rejects an empty signature header', () => {
    expect(rejection(() => verifyWebhook(secret, { ...signed(), 'webhook-signature': '' }, BODY, { now })).message).toBe('Missing webhook-signature header');
  });
});
