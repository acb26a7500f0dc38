/** Response and shared request schemas of /v1; the OpenAPI document is generated from these. */
import { z } from '@hono/zod-openapi';
import { ABILITIES } from '../../services/tokens/token-fns.js';
import { MAX_REPO_PATH_BYTES, repoPath } from '../../../src/core/repo-path.js';

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string().openapi({ description: 'Stable machine-readable error code, e.g. `token_invalid`, `ability_missing`, `rate_limited`.' }),
    detail: z.string(),
    instance: z.string(),
  })
  .passthrough()
  .openapi('Problem');

export const Ability = z.enum(ABILITIES).openapi('Ability');

export const Token = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['api', 'session']),
    prefix: z.string().openapi({ description: 'The first characters of the secret, to recognise it.' }),
    abilities: z.array(Ability),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .openapi('Token');

export const BatchStatus = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']).openapi('BatchStatus');

export const Batch = z
  .object({
    id: z.string(),
    status: BatchStatus,
    path: z.string().nullable().openapi({ description: "Repository path of the pushed source file; '' for keys pushed without a file." }),
    format: z.string().nullable(),
    keys: z.object({ added: z.number().int(), changed: z.number().int(), unchanged: z.number().int(), removed: z.number().int() }),
    rows: z.object({
      total: z.number().int(),
      queued: z.number().int(),
      done: z.number().int(),
      failed: z.number().int(),
      cancelled: z.number().int(),
      outcomes: z.record(z.string(), z.number().int()),
    }),
    words: z.object({ reserved: z.number().int(), spent: z.number().int(), refunded: z.number().int() }),
    rate: z
      .object({ rows_per_minute: z.number().int().nullable(), eta_seconds: z.number().int().nullable() })
      .openapi({ description: 'Rows settled a minute since a worker started the batch (to its end, once ended), and the seconds left at that pace while rows are queued; null before the first row settles.' }),
    error: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('Batch');

export const GateFailure = z
  .object({
    gate: z.enum(['placeholders', 'plurals', 'glossary', 'length']),
    reason: z.string(),
    attempt: z.number().int().optional(),
  })
  .openapi('GateFailure');

export const BatchRow = z
  .object({
    key: z.string(),
    path: z.string(),
    line: z.number().int().nullable().openapi({ description: 'Line of the key in the pushed source file, when the format has lines.' }),
    locale: z.string(),
    status: z.enum(['queued', 'done', 'failed', 'cancelled']),
    outcome: z.string().openapi({
      description:
        '`pending`; `translated` (written); `memory` (an exact translation-memory match, not charged); `refused` (failed a gate after its corrective retry, held for review, not written); `superseded` (the source changed meanwhile); `kept_human` (a person translated it meanwhile); `failed` (the provider did not answer; retry the batch); `cancelled`.',
    }),
    reason: z.string().nullable(),
    words: z.number().int(),
    pass: z.enum(['fast', 'careful']),
    attempts: z.number().int(),
    gate_outcome: z
      .enum(['passed', 'corrected', 'flagged', 'refused'])
      .nullable()
      .openapi({ description: '`passed`; `corrected` (failed, then passed after the one corrective retry); `flagged` (written, over its length budget); `refused` (held for review). Null until gated.' }),
    gate_failures: z.array(GateFailure).openapi({ description: 'Every gate failure of the row, with the attempt it happened on (1 = first translation, 2 = corrective retry).' }),
    corrective_retries: z.number().int().openapi({ description: '0 or 1.' }),
    provider: z.string().nullable().openapi({ description: "The provider that translated the row, or 'memory'." }),
  })
  .openapi('BatchRow');

export const Language = z
  .object({
    tag: z.string(),
    name: z.string().nullable(),
    role: z.enum(['source', 'target']),
    known: z.boolean().openapi({ description: 'Whether the tag is in the CLDR-derived table (false: accepted by the structural fallback).' }),
    added_at: z.string().nullable(),
  })
  .openapi('Language');

export const Pagination = z.object({
  cursor: z.string().optional().openapi({ description: 'The `next_cursor` of the previous page.' }),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** A response whose body is a Problem (application/problem+json), for `description`. */
export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: Problem } } });

export const problemResponses = {
  401: problem('Missing, malformed, unknown, expired or revoked token'),
  403: problem('The token lacks the ability, or the plan forbids it'),
  422: problem('Validation failed'),
  429: problem('Rate limit exceeded (see Retry-After)'),
} as const;

export const notFoundResponse = { 404: problem('Not found in this project') } as const;

/**
 * A source file's repository path in a request, held to the one path rule (src/core/repo-path.ts); a failing one is thrown
 * as it is and answered 422 `path_invalid` at the edge. '' names the keys pushed without a file.
 */
export const RepoPathParam = z
  .string()
  .transform((value) => (value === '' ? value : repoPath(value)))
  .openapi({
    type: 'string',
    description: `A relative POSIX path inside the repository such as \`locales/en.json\` (no \`.\` or \`..\` segments, backslashes, drive letters, control characters or empty segments; at most ${MAX_REPO_PATH_BYTES} bytes), or '' for keys pushed without a file; otherwise 422 \`path_invalid\`.`,
  });
