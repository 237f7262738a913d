/** Which sender methods the plan and edition allow (spec section 6), as the refusal to answer. */
import { billingPlanOf, senderMethodAllowed, type Edition, type ErrorCode, type SenderMethod } from '@sheaf/shared';

export function methodRefusal(method: SenderMethod, plan: string, edition: Edition): ErrorCode | null {
  if (senderMethodAllowed(method, billingPlanOf(plan), edition)) return null;
  if (edition === 'desktop') return 'sender/desktop-smtp-only';
  return method === 'spoof' ? 'sender/needs-pro' : 'sender/needs-enterprise';
}
