/** The shapes every /v1 route file repeats: the caller's project, id params, JSON responses, pages, conflicts. */
import { z } from '@hono/zod-openapi';
import { problem } from './schemas.js';

/** The id of the project the request's credential belongs to. */
export const projectId = (c: { get(key: 'auth'): { project: { id: string } } }) => c.get('auth').project.id;

/** Path params `{id}`: any non-empty id. */
export const ById = z.object({ id: z.string().min(1) });

/** Path params `{id}` of an id the service mints (at most 64 characters). */
export const ById64 = z.object({ id: z.string().min(1).max(64) });

/** A response whose body is `schema` as application/json. */
export const json = <S extends z.ZodType>(description: string, schema: S) => ({ description, content: { 'application/json': { schema } } });

/** Every item at once: `{ items }`. */
export const itemsOf = <S extends z.ZodType>(schema: S) => z.object({ items: z.array(schema) });

/** One page of a list: `{ items, next_cursor }`, the cursor null on the last page. */
export const pageOf = <S extends z.ZodType>(schema: S) => z.object({ items: z.array(schema), next_cursor: z.string().nullable() });

/** A list call's paging from a validated query: its limit, and its cursor when one was given. */
export const pageQuery = (q: { limit: number; cursor?: string | undefined }): { limit: number; cursor?: string } => ({ limit: q.limit, ...(q.cursor ? { cursor: q.cursor } : {}) });

/** A 409 response (problem+json): the resource's state does not allow the request, as `description` says. */
export const conflict = (description: string) => ({ 409: problem(description) });
