/** An address users may also write to (help page); deployments set it in SHEAF_CONFIG. Requests from the form go to SUPPORT_EMAIL on the server. */
export const SUPPORT_EMAIL: string =
  (typeof window !== 'undefined' && window.SHEAF_CONFIG?.supportEmail) || 'support@sheaf.app';
