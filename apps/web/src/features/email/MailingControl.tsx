/**
 * The cancel/report control that replaces Go home in the bottom bar while a mailing is triggered,
 * reporting or cancelled (docs/email.md#mailing-status-in-the-wizard): cancel (through the merge's
 * cancel, which stops the mailing too; disabled once cancelled) and a way to the email report.
 */
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Button, ButtonGroup, Tooltip } from '@mui/material';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import AssessmentOutlinedIcon from '@mui/icons-material/AssessmentOutlined';
import { CANCEL_MIN_ROWS } from '@sheaf/shared';
import { useAppSelector } from '../../app/hooks.ts';
import { canCancel } from '../wizard/mergeRules.ts';
import { useFollowedMerge, useMergeActions } from '../wizard/useMergeProgress.ts';
import { useMailingReport } from './useMailingPoller.ts';

export default function MailingControl() {
  const { t } = useTranslation('email');
  const { cancel, cancelling } = useMergeActions();
  const mailing = useAppSelector((state) => state.wizard.mailing);
  const report = useMailingReport();
  const merge = useFollowedMerge((state) => state.wizard.mailing.mergeId);
  const rowsToGenerate = useAppSelector((state) => state.wizard.rowsToGenerateCount);
  const total = report?.eventCounts.total || merge?.total || rowsToGenerate;
  const cancelled = mailing.status === 'cancelled';
  const requested = report?.isCancelled === true;
  const cancellable = canCancel(total);
  return (
    <ButtonGroup variant="outlined" aria-label={t('control.label')}>
      <Tooltip title={cancellable ? '' : t('control.cancelMinRows', { count: CANCEL_MIN_ROWS })}>
        <span>
          <Button color="error" startIcon={<StopCircleOutlinedIcon />} disabled={cancelled || requested || cancelling || !cancellable} onClick={() => void cancel()}>
            {cancelling || (requested && !cancelled) ? t('control.cancelling') : t('control.cancel')}
          </Button>
        </span>
      </Tooltip>
      <Button component={RouterLink} to="/email-report" startIcon={<AssessmentOutlinedIcon />}>{t('control.report')}</Button>
    </ButtonGroup>
  );
}
