/** Which sender methods the plan and edition allow (docs/email.md#sender-methods-by-plan), as the refusal to answer. */
import { billingPlanOf, entitlements, senderMethodRefusal, type Edition, type ErrorCode, type SenderMethod } from '@sheaf/shared';

export function methodRefusal(method: SenderMethod, plan: string, edition: Edition): ErrorCode | null {
  return senderMethodRefusal(method, entitlements(billingPlanOf(plan), edition));
}
