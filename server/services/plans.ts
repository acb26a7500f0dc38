/** What each plan allows: word allowance, projects, locale rows, and whether API tokens can be minted. */
import type { Plan } from '../db/schema.js';

export interface PlanLimits {
  /** Words available in the first month. */
  initialWords: number;
  /** Words available in each month after the first. */
  monthlyWords: number;
  /** Projects an organisation may own. */
  maxProjects: number;
  /** Locale rows per project, counting the source locale. */
  maxLocaleRows: number;
  seats: number;
  canMintTokens: boolean;
}

export const PLANS: Record<Plan, PlanLimits> = {
  free: {
    initialWords: 100_000,
    monthlyWords: 10_000,
    maxProjects: 1,
    maxLocaleRows: 15,
    seats: 3,
    canMintTokens: false,
  },
  starter: {
    initialWords: 300_000,
    monthlyWords: 300_000,
    maxProjects: Number.POSITIVE_INFINITY,
    maxLocaleRows: Number.POSITIVE_INFINITY,
    seats: 3,
    canMintTokens: true,
  },
};

export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

/** The allowance period that contains `now`, for periods of one calendar month starting at `anchor`. */
export function periodContaining(anchor: Date, now: Date): { start: Date; end: Date; index: number } {
  let index = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (addMonths(anchor, index) > now) index -= 1;
  index = Math.max(index, 0);
  return { start: addMonths(anchor, index), end: addMonths(anchor, index + 1), index };
}

export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}
