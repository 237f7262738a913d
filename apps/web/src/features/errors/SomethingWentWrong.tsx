/**
 * Shown when a page fails to render. The error is reported (when the server configured error reports)
 * and "support has been notified" shows only once that report reached the service; otherwise the screen
 * offers a support request, with the failed call's request id filled in (docs/support.md).
 */
import { useEffect, useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import ErrorIcon from '@mui/icons-material/ErrorOutlined';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/apiError.ts';
import { recentErrors } from '../../api/recentErrors.ts';
import { reportError } from '../../app/errorReporting/index.ts';
import { supportLink } from '../help/supportLink.ts';

export default function SomethingWentWrong({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const { t } = useTranslation('errors');
  // null while the report is on its way: neither claim nor offer yet.
  const [notified, setNotified] = useState<boolean | null>(error === undefined ? false : null);
  useEffect(() => {
    if (error === undefined) return;
    let live = true;
    void reportError(error).then((sent) => {
      if (live) setNotified(sent);
    });
    return () => {
      live = false;
    };
  }, [error]);
  const requestId = error instanceof ApiError && error.requestId ? error.requestId : recentErrors.latestRequestId();
  return (
    <Box role="alert" sx={{ textAlign: 'center', py: { xs: 6, sm: 10 }, px: 2 }}>
      <ErrorIcon color="error" sx={{ fontSize: 64 }} />
      <Typography variant="h4" component="h1" sx={{ mt: 1 }}>{t('pages.somethingWrongTitle')}</Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, maxWidth: 520, mx: 'auto' }}>
        {notified ? t('pages.somethingWrongNotified') : t('pages.somethingWrongText')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'center', mt: 3, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={() => (onRetry ? onRetry() : window.location.reload())}>{t('pages.reload')}</Button>
        {/* Plain links: the router may be what failed. */}
        <Button variant="outlined" href="/">{t('common:backHome')}</Button>
        {notified === false && <Button variant="outlined" href={supportLink({ requestId })}>{t('pages.contactSupport')}</Button>}
      </Box>
    </Box>
  );
}
