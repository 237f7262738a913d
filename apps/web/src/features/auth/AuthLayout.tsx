/** Frame of the public pages: logo, a card that fades in over 500 ms, language selector, copyright. */
import type { ReactNode } from 'react';
import { Box, Card, CardContent, Fade, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import LanguageSelector from '../../components/LanguageSelector.tsx';
import Logo from '../../components/Logo.tsx';

export default function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('auth');
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: { xs: 2, sm: 4 }, py: 2, gap: 2 }}>
        <Logo />
        <LanguageSelector />
      </Box>
      <Fade in appear timeout={500}>
        <Box component="main" sx={{ flex: 1, display: 'flex', alignItems: { xs: 'flex-start', sm: 'center' }, justifyContent: 'center', px: 2, py: 3 }}>
          <Card variant="outlined" sx={{ width: '100%', maxWidth: 460 }}>
            <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
              <Typography variant="h5" component="h1" gutterBottom>
                {title}
              </Typography>
              {children}
            </CardContent>
          </Card>
        </Box>
      </Fade>
      <Box component="footer" sx={{ py: 2, textAlign: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {t('copyright', { year: new Date().getFullYear() })}
        </Typography>
      </Box>
    </Box>
  );
}
