/**
 * The status views of a merge (docs/merging.md#merge-states): checker (in progress, determinate
 * progress), offline (the merge goes on on the server), completed (download, issues, savings), cancelled
 * (no credits deducted) and error (offline or generic title and description, then the error's own text).
 */
import { useTranslation } from 'react-i18next';
import { Alert, AlertTitle, Box, Button, LinearProgress, List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { estimateSavings } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { translateCode } from '../../i18n/errors.ts';
import { useWizardDetail } from './templateDetail.ts';
import { formatBytes } from './format.ts';
import { progressPercent } from './mergeRules.ts';
import { useFollowedMerge } from './useMergeProgress.ts';
import { mergeReset } from './wizardSlice.ts';

function Progress() {
  const { t, i18n } = useTranslation('wizard');
  const status = useAppSelector((state) => state.wizard.mailMergeStatus);
  const merge = useFollowedMerge();
  const expectedTotal = useAppSelector((state) => state.wizard.expectedTotal);
  const total = merge?.total ?? expectedTotal;
  const done = merge?.done ?? 0;
  const percent = progressPercent(merge);
  return (
    <Stack spacing={2} data-testid="merge-progress">
      <Typography variant="h6" component="h2">{t('status.checkerTitle')}</Typography>
      <LinearProgress variant="determinate" value={percent} aria-label={t('status.progressLabel')} sx={{ height: 8, borderRadius: 1 }} />
      <Typography>{t('status.progress', { done: done.toLocaleString(i18n.language), total: total.toLocaleString(i18n.language), percent })}</Typography>
      {status === 'offline' && (
        <Alert severity="warning">
          <AlertTitle>{t('status.offlineTitle')}</AlertTitle>
          {t('status.offlineRunning')}
        </Alert>
      )}
    </Stack>
  );
}

function Completed() {
  const { t, i18n } = useTranslation(['wizard', 'errors']);
  const dispatch = useAppDispatch();
  const merge = useFollowedMerge();
  const placeholderCount = useWizardDetail()?.placeholders.length ?? 0;
  if (!merge) return null;
  const documents = merge.isCombinedOutput ? merge.done : Math.max(0, merge.done - merge.issues.length);
  const savings = estimateSavings(documents, placeholderCount);
  return (
    <Stack spacing={2} data-testid="merge-completed">
      <Alert severity="success"><AlertTitle>{t('status.completedTitle')}</AlertTitle>{t('status.completedDescription', { count: documents })}</Alert>
      {merge.downloadUrl && merge.fileName && (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Box sx={{ flex: 1 }}>
              <Typography sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{merge.fileName}</Typography>
              {merge.fileSize !== null && <Typography variant="body2" color="text.secondary">{formatBytes(merge.fileSize, i18n.language)}</Typography>}
            </Box>
            <Button variant="contained" startIcon={<DownloadIcon />} component="a" href={api.href(merge.downloadUrl)} download={merge.fileName}>
              {t('status.download')}
            </Button>
          </Stack>
        </Paper>
      )}
      {merge.issues.length > 0 && (
        <Alert severity="warning">
          <AlertTitle>{t('status.issuesTitle', { count: merge.issues.length })}</AlertTitle>
          <List dense disablePadding>
            {merge.issues.slice(0, 50).map((issue, index) => (
              <ListItem key={index} disableGutters>
                <ListItemText primary={t('status.issue', { row: issue.rowNumber, message: translateCode(issue.code, { row: issue.rowNumber }, t) || issue.message })} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
      {savings.hours > 0 && (
        <Typography data-testid="savings">
          {t(savings.errorsPrevented > 0 ? 'status.savings' : 'status.savingsTime', {
            hours: savings.hours.toLocaleString(i18n.language),
            dollars: savings.dollars.toLocaleString(i18n.language),
            errors: savings.errorsPrevented.toLocaleString(i18n.language),
          })}
        </Typography>
      )}
      <Box><Button onClick={() => dispatch(mergeReset())}>{t('status.generateAgain')}</Button></Box>
    </Stack>
  );
}

export default function MergeStatusView() {
  const { t } = useTranslation(['wizard', 'errors']);
  const dispatch = useAppDispatch();
  const status = useAppSelector((state) => state.wizard.mailMergeStatus);
  const error = useAppSelector((state) => state.wizard.mailMergeError);
  if (status === 'checker' || status === 'offline') return <Progress />;
  if (status === 'completed') return <Completed />;
  if (status === 'cancelled') {
    return (
      <Stack spacing={2} data-testid="merge-cancelled">
        <Alert severity="info"><AlertTitle>{t('status.cancelledTitle')}</AlertTitle>{t('status.cancelledDescription')}</Alert>
        <Box><Button onClick={() => dispatch(mergeReset())}>{t('status.backToOptions')}</Button></Box>
      </Stack>
    );
  }
  if (status === 'error') {
    const offline = error?.offline === true;
    const detail = error ? translateCode(error.code, error.params, t) || error.message : '';
    return (
      <Stack spacing={2} data-testid="merge-error">
        <Alert severity="error">
          <AlertTitle>{offline ? t('status.offlineTitle') : t('status.errorTitle')}</AlertTitle>
          <Typography variant="body2">{offline ? t('status.offlineDescription') : t('status.errorDescription')}</Typography>
          {detail && <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }}>{detail}</Typography>}
        </Alert>
        <Box><Button variant="contained" onClick={() => dispatch(mergeReset())}>{t('status.tryAgain')}</Button></Box>
      </Stack>
    );
  }
  return null;
}
