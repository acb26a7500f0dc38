/** Security headers on every response: `nosniff` everywhere, and a Content-Security-Policy on HTML that sets none itself. */
import type { MiddlewareHandler } from 'hono';

/** `htmlPolicy`: the Content-Security-Policy for HTML responses without their own (the console sends its own). */
export function securityHeaders(options: { htmlPolicy: string }): MiddlewareHandler {
  return async function setSecurityHeaders(c, next) {
    await next();
    const set = (headers: Headers) => {
      headers.set('X-Content-Type-Options', 'nosniff');
      if (/^text\/html\b/i.test(headers.get('content-type') ?? '') && !headers.has('content-security-policy')) headers.set('Content-Security-Policy', options.htmlPolicy);
    };
    try {
      set(c.res.headers);
    } catch {
      // A response passed through from fetch() has immutable headers: copy it.
      c.res = new Response(c.res.body, c.res);
      set(c.res.headers);
    }
  };
}
