/** Shown when a page fails to render: support has been notified; reload or go home. */
import { Box, Button, Typography } from '@mui/material';
import ErrorIcon from '@mui/icons-material/ErrorOutlined';
import { useTranslation } from 'react-i18next';

export default function SomethingWentWrong({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation('errors');
  return (
    <Box role="alert" sx={{ textAlign: 'center', py: { xs: 6, sm: 10 }, px: 2 }}>
      <ErrorIcon color="error" sx={{ fontSize: 64 }} />
      <Typography variant="h4" component="h1" sx={{ mt: 1 }}>{t('pages.somethingWrongTitle')}</Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, maxWidth: 520, mx: 'auto' }}>{t('pages.somethingWrongText')}</Typography>
      <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'center', mt: 3, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={() => (onRetry ? onRetry() : window.location.reload())}>{t('pages.reload')}</Button>
        {/* A plain link: the router may be what failed. */}
        <Button variant="outlined" href="/">{t('common:backHome')}</Button>
      </Box>
    </Box>
  );
}
