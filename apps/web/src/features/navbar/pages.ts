/** The signed-in areas: route, title key (navbar namespace) and who may see them. */
export interface AreaPage {
  path: string;
  titleKey: string;
  /** Hidden for child users (docs/accounts.md#roles-and-permissions). */
  parentOnly: boolean;
}

export const AREA_PAGES: readonly AreaPage[] = [
  { path: '/account', titleKey: 'pages.account', parentOnly: false },
  { path: '/users', titleKey: 'pages.users', parentOnly: true },
  { path: '/senders', titleKey: 'pages.senders', parentOnly: false },
  { path: '/email-report', titleKey: 'pages.emailReport', parentOnly: false },
  { path: '/api-keys', titleKey: 'pages.apiKeys', parentOnly: true },
  { path: '/integrations', titleKey: 'pages.integrations', parentOnly: true },
  { path: '/billing', titleKey: 'pages.billing', parentOnly: true },
  { path: '/help', titleKey: 'pages.help', parentOnly: false },
  { path: '/offline', titleKey: 'pages.offline', parentOnly: false },
];

export function pageTitleKey(pathname: string): string | null {
  if (pathname.startsWith('/wizard/')) return 'pages.wizard';
  return AREA_PAGES.find((page) => pathname === page.path || pathname.startsWith(`${page.path}/`))?.titleKey ?? null;
}
