/** Frame of every signed-in page: navbar on top, the page below (lazy-loaded, with its own error boundary). */
import { Suspense, useEffect, type ReactNode } from 'react';
import { Box, Container } from '@mui/material';
import { Outlet, useLocation } from 'react-router';
import PageLoader from '../components/PageLoader.tsx';
import { useCurrentUser } from '../features/auth/useCurrentUser.ts';
import Navbar from '../features/navbar/Navbar.tsx';
import { applyAccountLanguage } from '../i18n/index.ts';
import ErrorBoundary from './ErrorBoundary.tsx';

/** The wizard uses the full width (the editor needs it); other pages sit in a centred column. */
const FULL_WIDTH = /^\/wizard\//;

export default function AppLayout({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  const { data: user } = useCurrentUser();
  useEffect(() => {
    if (user) applyAccountLanguage(user.language);
  }, [user]);

  const page = (
    <ErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageLoader />}>{children ?? <Outlet />}</Suspense>
    </ErrorBoundary>
  );
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Navbar />
      <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
        {FULL_WIDTH.test(pathname) ? page : <Container maxWidth="lg" sx={{ py: { xs: 2, sm: 4 } }}>{page}</Container>}
      </Box>
    </Box>
  );
}
