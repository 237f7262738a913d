/** docs/web-app.md#account-area: the tabs, in order, with their routes. */
export const ACCOUNT_TABS = [
  { key: 'account', path: '/account', parentOnly: false },
  { key: 'users', path: '/users', parentOnly: true },
  { key: 'senders', path: '/senders', parentOnly: false },
  { key: 'emailReport', path: '/email-report', parentOnly: false },
  { key: 'apiKeys', path: '/api-keys', parentOnly: true },
  { key: 'integrations', path: '/integrations', parentOnly: true },
  { key: 'billing', path: '/billing', parentOnly: true },
] as const;

/**
 * docs/limits.md#timing-in-the-web-app: a tab switch waits this long before the route changes (the
 * indicator moves first).
 */
export const TAB_SWITCH_DELAY_MS = 500;

export function visibleAccountTabs(isChildUser: boolean) {
  return ACCOUNT_TABS.filter((tab) => !(isChildUser && tab.parentOnly));
}
