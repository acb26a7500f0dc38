/** Authenticates the bearer token and applies the per-token rate limit; public pages are limited per address. */
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../../errors.js';
import type { RateLimiter, RateLimitResult } from '../../rate-limit/rate-limiter.js';
import type { TokenService } from '../../services/tokens/token-service.js';
import type { AppEnv } from '../context.js';

export function rateLimitHeaders(limit: RateLimitResult): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit.limit),
    'x-ratelimit-remaining': String(limit.remaining),
    'x-ratelimit-reset': String(limit.resetAt),
  };
}

export function remoteAddress(c: { env: unknown }): string {
  try {
    return getConnInfo(c as Parameters<typeof getConnInfo>[0]).remote.address ?? 'local';
  } catch {
    return 'local';
  }
}

/** `ownPrefixes`: routes that authenticate and limit requests themselves (the cookie-based /v1/auth). */
export function authenticate(options: { tokens: TokenService; limiter: RateLimiter; publicPaths: readonly string[]; ownPrefixes?: readonly string[] }): MiddlewareHandler<AppEnv> {
  const { tokens, limiter } = options;
  const publicPaths = new Set(options.publicPaths);

  async function limit(c: Parameters<MiddlewareHandler<AppEnv>>[0], key: string) {
    const result = await limiter.hit(key);
    c.set('rateLimit', result);
    if (!result.allowed) {
      throw new ApiError(429, 'rate_limited', `Rate limit of ${result.limit} requests per minute exceeded for this ${key.startsWith('token:') ? 'token' : 'address'}; retry in ${result.retryAfter} s.`, {
        retry_after: result.retryAfter,
      }, { 'Retry-After': String(result.retryAfter) });
    }
  }

  const ownPrefixes = options.ownPrefixes ?? [];
  return async function authenticateRequest(c, next) {
    if (ownPrefixes.some((prefix) => c.req.path.startsWith(prefix))) return next();
    if (publicPaths.has(c.req.path)) {
      await limit(c, `address:${remoteAddress(c)}`);
    } else {
      let auth;
      try {
        auth = await tokens.authenticate(c.req.header('authorization'));
      } catch (error) {
        // Failed credentials are limited per address, so guessing tokens costs the guesser, not a real token.
        await limit(c, `address:${remoteAddress(c)}`);
        throw error;
      }
      await limit(c, `token:${auth.token.id}`);
      await tokens.touch(auth.token);
      c.set('auth', auth);
    }
    await next();
    const result = c.get('rateLimit');
    if (result) for (const [name, value] of Object.entries(rateLimitHeaders(result))) c.res.headers.set(name, value);
  };
}
