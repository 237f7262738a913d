/**
 * The bar under every step: Back (with an error on step 4 it returns to the options), Go home, or
 * Cancel while a merge runs (enabled from 10 rows), and Next on steps 1 to 3. While documents are
 * emailed, the mailing's Back rules apply and its cancel/report control replaces Go home.
 */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Box, Button, Divider, Stack, Tooltip } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import HomeOutlinedIcon from '@mui/icons-material/HomeOutlined';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import { CANCEL_MIN_ROWS } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { canCancel } from './mergeRules.ts';
import { stepContext } from './stepNavigation.ts';
import { useWizardDetail } from './templateDetail.ts';
import { backAction, isMergeRunning, LAST_STEP, stepBlockReason } from './stepRules.ts';
import { useFollowedMerge, useMergeActions } from './useMergeProgress.ts';
import { useRunStep } from './wizardHooks.ts';
import { mailingReset, mergeReset } from './wizardSlice.ts';
import MailingControl from '../email/MailingControl.tsx';
import { mailingBackAction, showsMailingControl } from '../email/mailingRules.ts';

export default function WizardBottomBar() {
  const { t } = useTranslation('wizard');
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const runStep = useRunStep();
  const { cancel, cancelling } = useMergeActions();
  const wizard = useAppSelector((state) => state.wizard);
  const template = useWizardDetail();
  const step = wizard.activeStep;
  const back = mailingBackAction(step, LAST_STEP, wizard.mailing.status) ?? backAction(step, wizard.mailMergeStatus);
  const mailingControl = step === LAST_STEP && showsMailingControl(wizard.mailing.status);
  const running = isMergeRunning(wizard.mailMergeStatus);
  const merge = useFollowedMerge();
  const cancellable = canCancel(merge?.total ?? wizard.rowsToGenerateCount);
  const nextBlocked = step === LAST_STEP || stepBlockReason(step + 1, stepContext(wizard, template)) !== null;

  return (
    <Box component="nav" aria-label={t('bar.label')} sx={{ mt: 4 }}>
      <Divider sx={{ mb: 2 }} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Button
          startIcon={<ArrowBackIcon />}
          disabled={back === 'disabled' || wizard.stepChanging}
          onClick={() => {
            if (back !== 'resetStatus') return void runStep(step - 1);
            dispatch(mergeReset());
            dispatch(mailingReset());
          }}
        >
          {t('bar.back')}
        </Button>
        {mailingControl ? <MailingControl /> : running ? (
          <Tooltip title={cancellable ? '' : t('bar.cancelMinRows', { count: CANCEL_MIN_ROWS })}>
            <span>
              <Button color="error" variant="outlined" startIcon={<StopCircleOutlinedIcon />} disabled={!cancellable || cancelling} onClick={() => void cancel()}>
                {cancelling ? t('bar.cancelling') : t('bar.cancel')}
              </Button>
            </span>
          </Tooltip>
        ) : (
          <Button startIcon={<HomeOutlinedIcon />} onClick={() => navigate('/')}>{t('bar.home')}</Button>
        )}
        <Box sx={{ flex: 1 }} />
        {step < LAST_STEP && (
          <Button variant="contained" endIcon={<ArrowForwardIcon />} disabled={nextBlocked || wizard.stepChanging} onClick={() => void runStep(step + 1)}>
            {t('bar.next')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
