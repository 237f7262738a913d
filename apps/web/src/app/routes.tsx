/**
 * The route table (docs/web-app.md#routes). Public pages only for signed-out users; the offline
 * licence's pages for everyone; everything else needs a session and renders inside the navbar layout.
 * Pages are lazy-loaded chunks.
 */
import { Suspense, useState } from 'react';
import { createBrowserRouter, Navigate, useParams, useRouteError, type RouteObject } from 'react-router';
import { isValidId } from '@sheaf/shared';
import { Box } from '@mui/material';
import ComingSoon from '../components/ComingSoon.tsx';
import LanguageSelector from '../components/LanguageSelector.tsx';
import Logo from '../components/Logo.tsx';
import PageLoader from '../components/PageLoader.tsx';
import { PublicOnly, RequireAuth } from '../features/auth/guards.tsx';
import { useIsSignedIn } from '../features/auth/useAuth.ts';
import NotFound from '../features/errors/NotFound.tsx';
import SomethingWentWrong from '../features/errors/SomethingWentWrong.tsx';
import { wizardPageKey } from '../features/wizard/wizardPageKey.ts';
import AppLayout from './AppLayout.tsx';
import OpenLayout from './OpenLayout.tsx';
import { lazyPage } from './background/chunkReload.ts';
import { useAppSelector } from './hooks.ts';

const HomePage = lazyPage(() => import('../features/home/HomePage.tsx'));
const WizardPage = lazyPage(() => import('../features/wizard/WizardPage.tsx'));
const AccountPage = lazyPage(() => import('../features/account/AccountPage.tsx'));
const SendersPage = lazyPage(() => import('../features/senders/SendersPage.tsx'));
const EmailReportPage = lazyPage(() => import('../features/emailReport/EmailReportPage.tsx'));
const HelpPage = lazyPage(() => import('../features/help/HelpPage.tsx'));
const LegalPage = lazyPage(() => import('../features/help/LegalPage.tsx'));
const LoginPage = lazyPage(() => import('../features/auth/LoginPage.tsx'));
const RegisterPage = lazyPage(() => import('../features/auth/RegisterPage.tsx'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/ResetPasswordPage.tsx'));
const OAuthCallbackPage = lazyPage(() => import('../features/auth/OAuthCallbackPage.tsx'));
const BillingPage = lazyPage(() => import('../features/billing/BillingPage.tsx'));
const UsersPage = lazyPage(() => import('../features/users/UsersPage.tsx'));
const OfflinePage = lazyPage(() => import('../features/billing/OfflinePage.tsx'));
const OfflineSuccessPage = lazyPage(() => import('../features/billing/OfflineSuccessPage.tsx'));

/** Later areas: a "coming soon" page each (docs/web-app.md#routes lists them; issue #3 leaves their places). */
export const COMING_SOON: readonly { path: string; titleKey: string }[] = [
  { path: 'api-keys', titleKey: 'pages.apiKeys' },
  { path: 'integrations', titleKey: 'pages.integrations' },
];

/**
 * /wizard/new or a 20-character id; anything else goes home. Another template is another page, but
 * /wizard/new becoming /wizard/<id> after its upload stays the same page (nothing is built twice).
 */
function WizardRoute() {
  const { templateId = '' } = useParams();
  const created = useAppSelector((state) => state.wizard.templateId);
  const [page, setPage] = useState(() => wizardPageKey(null, templateId, created));
  const next = wizardPageKey(page, templateId, created);
  if (next !== page) setPage(next);
  if (templateId !== 'new' && !isValidId(templateId)) return <Navigate to="/" replace />;
  return <WizardPage key={next.key} />;
}

function RouteError() {
  // The screen reports the error once and says "notified" only when the report was delivered.
  return <SomethingWentWrong error={useRouteError()} />;
}

/** Unknown paths: inside the navbar layout when signed in, on their own otherwise. */
function NotFoundRoute() {
  if (useIsSignedIn()) return <AppLayout><NotFound /></AppLayout>;
  // Signed out: the public pages' header (logo, language selector) so the visitor is not stranded.
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: { xs: 2, sm: 4 }, py: 2, gap: 2 }}>
        <Logo />
        <LanguageSelector />
      </Box>
      <NotFound />
    </Box>
  );
}

const publicPage = (element: React.ReactNode) => (
  <PublicOnly>
    <Suspense fallback={<PageLoader fullScreen />}>{element}</Suspense>
  </PublicOnly>
);

export const routeObjects: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: '/login', element: publicPage(<LoginPage />) },
      { path: '/register', element: publicPage(<RegisterPage />) },
      { path: '/resetPassword', element: publicPage(<ResetPasswordPage />) },
      // Back from Google, Apple or Microsoft (docs/accounts.md#social-sign-in).
      { path: '/oauth/callback', element: publicPage(<OAuthCallbackPage />) },
      { path: '/terms', element: <Suspense fallback={<PageLoader fullScreen />}><LegalPage kind="terms" /></Suspense> },
      { path: '/privacy', element: <Suspense fallback={<PageLoader fullScreen />}><LegalPage kind="privacy" /></Suspense> },
      // The offline licence is sold to visitors and signed-in users alike: no guard either way.
      { path: '/offline', element: <OpenLayout><OfflinePage /></OpenLayout> },
      { path: '/offline/success', element: <OpenLayout><OfflineSuccessPage /></OpenLayout> },
      {
        path: '/',
        element: <RequireAuth><AppLayout /></RequireAuth>,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'wizard/:templateId', element: <WizardRoute /> },
          { path: 'account', element: <AccountPage /> },
          { path: 'senders', element: <SendersPage /> },
          { path: 'email-report', element: <EmailReportPage /> },
          { path: 'help', element: <HelpPage /> },
          { path: 'billing', element: <BillingPage /> },
          { path: 'users', element: <UsersPage /> },
          ...COMING_SOON.map(({ path, titleKey }) => ({ path, element: <ComingSoon titleKey={titleKey} /> })),
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routeObjects);
}
