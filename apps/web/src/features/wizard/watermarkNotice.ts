/** The watermark the user's plan puts on every generated page (the plan catalogue decides), or null. */
import { entitlements, FREE_PLAN_WATERMARK, type BillingPlan, type Edition } from '@sheaf/shared';

export function planWatermark(plan: BillingPlan | undefined, edition: Edition | undefined): string | null {
  if (plan === undefined || edition === undefined) return null;
  return entitlements(plan, edition).watermark ? FREE_PLAN_WATERMARK : null;
}
