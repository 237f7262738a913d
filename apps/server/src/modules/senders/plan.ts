/** Which sender methods the plan and edition allow (spec section 6), as the refusal to answer. */
import { senderMethodAllowed, type ErrorCode, type SenderMethod } from '@sheaf/shared';

export function methodRefusal(method: SenderMethod, plan: string, edition: 'web' | 'desktop'): ErrorCode | null {
  if (senderMethodAllowed(method, plan, edition)) return null;
  if (edition === 'desktop') return 'sender/desktop-smtp-only';
  return method === 'spoof' ? 'sender/needs-pro' : 'sender/needs-enterprise';
}
