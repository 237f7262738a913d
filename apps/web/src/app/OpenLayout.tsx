/**
 * Frame of the pages open to everyone that sell something (/offline, /offline/success): the navbar
 * layout for a signed-in user, else the public header (logo, sign-in link, language) and footer.
 */
import { Suspense, type ReactNode } from 'react';
import { Box, Button, Container, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import LanguageSelector from '../components/LanguageSelector.tsx';
import Logo from '../components/Logo.tsx';
import PageLoader from '../components/PageLoader.tsx';
import { useIsSignedIn } from '../features/auth/useAuth.ts';
import AppLayout from './AppLayout.tsx';
import ErrorBoundary from './ErrorBoundary.tsx';

export default function OpenLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation(['common', 'auth']);
  if (useIsSignedIn()) return <AppLayout>{children}</AppLayout>;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: { xs: 2, sm: 4 }, py: 2, gap: 2 }}>
        <Logo />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <Button component={RouterLink} to="/login" variant="outlined">{t('common:signIn')}</Button>
          <LanguageSelector />
        </Box>
      </Box>
      <Container component="main" maxWidth="lg" sx={{ flex: 1, py: { xs: 2, sm: 4 } }}>
        <ErrorBoundary>
          <Suspense fallback={<PageLoader />}>{children}</Suspense>
        </ErrorBoundary>
      </Container>
      <Box component="footer" sx={{ py: 2, textAlign: 'center' }}>
        <Typography variant="body2" color="text.secondary">{t('auth:copyright', { year: new Date().getFullYear() })}</Typography>
      </Box>
    </Box>
  );
}
