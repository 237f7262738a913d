/** Where users reach support (help page, "suggest improvement"); deployments set it in SHEAF_CONFIG. */
export const SUPPORT_EMAIL: string =
  (typeof window !== 'undefined' && window.SHEAF_CONFIG?.supportEmail) || 'support@sheaf.app';

export function mailtoSupport(subject: string, body = ''): string {
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}${body ? `&body=${encodeURIComponent(body)}` : ''}`;
}
