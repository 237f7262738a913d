/**
 * Step 4 while the documents are emailed (docs/email.md#mailing-status-in-the-wizard): the merge's
 * progress while documents are made, then the mailing's tiles and the table of messages, polled every 10
 * s; the offline notice, the error view, and the end (completed or cancelled) with a way to start again.
 */
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Alert, AlertTitle, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { translateCode } from '../../i18n/errors.ts';
import MessagesGrid from '../emailReport/MessagesGrid.tsx';
import ReportTiles from '../emailReport/ReportTiles.tsx';
import MergeStatusView from '../wizard/MergeStatusView.tsx';
import { isMergeRunning } from '../wizard/stepRules.ts';
import { mailingReset, mergeReset } from '../wizard/wizardSlice.ts';
import { useMailingReport } from './useMailingPoller.ts';

export default function MailingView() {
  const { t, i18n } = useTranslation(['email', 'errors']);
  const dispatch = useAppDispatch();
  const mailing = useAppSelector((state) => state.wizard.mailing);
  const mergeStatus = useAppSelector((state) => state.wizard.mailMergeStatus);
  const report = useMailingReport();
  const restart = () => {
    dispatch(mailingReset());
    dispatch(mergeReset());
  };
  const number = (value: number) => value.toLocaleString(i18n.language);
  const total = report?.eventCounts.total ?? 0;
  const processed = report ? total - report.eventCounts.queued : 0;
  const percent = total > 0 ? Math.round((processed / total) * 100) : 0;

  if (mailing.status === 'error') {
    const offline = mailing.error?.offline === true;
    const detail = mailing.error ? translateCode(mailing.error.code, mailing.error.params, t) || mailing.error.message : '';
    return (
      <Stack spacing={2} data-testid="mailing-error">
        <Alert severity="error">
          <AlertTitle>{offline ? t('mailing.offlineTitle') : t('mailing.errorTitle')}</AlertTitle>
          <Typography variant="body2">{offline ? t('mailing.offlineDescription') : t('mailing.errorDescription')}</Typography>
          {detail && <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }}>{detail}</Typography>}
        </Alert>
        <Box><Button variant="contained" onClick={restart}>{t('mailing.backToOptions')}</Button></Box>
      </Stack>
    );
  }

  return (
    <Stack spacing={2} data-testid="mailing-view" aria-live="polite">
      <Typography variant="h5" component="h1">{t('mailing.title')}</Typography>
      {isMergeRunning(mergeStatus) && (
        <>
          <Typography color="text.secondary">{t('mailing.generatingFirst')}</Typography>
          <MergeStatusView />
        </>
      )}
      {mailing.offline && (
        <Alert severity="warning" data-testid="mailing-offline"><AlertTitle>{t('mailing.offlineTitle')}</AlertTitle>{t('mailing.offlineRunning')}</Alert>
      )}
      {mailing.status === 'triggered' && !isMergeRunning(mergeStatus) && (
        <Stack spacing={1}>
          <Typography>{t('mailing.preparing')}</Typography>
          <LinearProgress aria-label={t('mailing.preparing')} />
        </Stack>
      )}
      {mailing.status === 'report' && report && (
        <Stack spacing={1}>
          <Typography>{report.isCancelled ? t('mailing.cancelling') : t('mailing.progress', { done: number(processed), total: number(total), percent })}</Typography>
          <LinearProgress variant="determinate" value={percent} aria-label={t('mailing.progressLabel')} sx={{ height: 8, borderRadius: 1 }} />
        </Stack>
      )}
      {mailing.status === 'completed' && (
        <Alert severity="success" data-testid="mailing-completed" action={<Button color="inherit" onClick={restart}>{t('mailing.newMerge')}</Button>}>
          <AlertTitle>{t('mailing.completedTitle')}</AlertTitle>
          {t('mailing.completedDescription', { count: total, formatted: number(total) })}
        </Alert>
      )}
      {mailing.status === 'cancelled' && (
        <Alert severity="info" data-testid="mailing-cancelled" action={<Button color="inherit" onClick={restart}>{t('mailing.backToOptions')}</Button>}>
          <AlertTitle>{t('mailing.cancelledTitle')}</AlertTitle>
          {t('mailing.cancelledDescription')}
        </Alert>
      )}
      {report && (
        <>
          <ReportTiles counts={report.eventCounts} />
          <MessagesGrid rows={report.events} emptyText={t('mailing.noMessagesYet')} minHeight={360} minWidth={720} height={440} />
          <Typography variant="body2" color="text.secondary">
            {t('mailing.reportHint')} <Button component={RouterLink} to="/email-report" size="small">{t('control.report')}</Button>
          </Typography>
        </>
      )}
    </Stack>
  );
}
