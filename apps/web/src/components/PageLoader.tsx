/** Centered spinner while a page's code or data loads. */
import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

export default function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: fullScreen ? '100vh' : 240 }}>
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
