/** Refuses a request whose token lacks the ability the route needs, naming it. */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../errors.js';
import type { Ability } from '../../services/tokens/token-fns.js';
import type { AppEnv } from '../context.js';

export function requireAbility(ability: Ability): MiddlewareHandler<AppEnv> {
  return async function checkAbility(c, next) {
    const auth = c.get('auth');
    if (!auth.abilities.has(ability)) {
      throw new ApiError(403, 'ability_missing', `This token lacks the '${ability}' ability needed for ${c.req.method} ${c.req.routePath}. Its abilities: ${[...auth.abilities].join(', ') || '(none)'}.`, {
        ability,
      });
    }
    await next();
  };
}
