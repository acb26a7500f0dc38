/** Refuses a request whose token lacks the ability the route needs (or, given several, any one of them), naming it. */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../errors.js';
import type { Ability } from '../../services/tokens/token-fns.js';
import type { AppEnv } from '../context.js';

export function requireAbility(needed: Ability | readonly Ability[]): MiddlewareHandler<AppEnv> {
  const any = typeof needed === 'string' ? [needed] : needed;
  const named = any.map((ability) => `'${ability}'`).join(' or ');
  return async function checkAbility(c, next) {
    const auth = c.get('auth');
    if (!any.some((ability) => auth.abilities.has(ability))) {
      throw new ApiError(403, 'ability_missing', `This token lacks the ${named} ability needed for ${c.req.method} ${c.req.routePath}. Its abilities: ${[...auth.abilities].join(', ') || '(none)'}.`, {
        ability: any[0],
      });
    }
    await next();
  };
}
