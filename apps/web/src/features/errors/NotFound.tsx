/** Any unknown path. */
import { Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function NotFound() {
  const { t } = useTranslation('errors');
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 6, sm: 10 }, px: 2 }}>
      <Typography variant="h2" component="p" color="primary" sx={{ fontWeight: 700 }}>404</Typography>
      <Typography variant="h4" component="h1" sx={{ mt: 1 }}>{t('pages.notFoundTitle')}</Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5 }}>{t('pages.notFoundText')}</Typography>
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>{t('common:backHome')}</Button>
    </Box>
  );
}
