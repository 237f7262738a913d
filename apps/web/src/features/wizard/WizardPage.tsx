/**
 * /wizard/:templateId — the four-step merge wizard (docs/web-app.md#wizard). The id is 'new' or 20
 * letters and digits (anything else goes home). Step 2 is the placeholder editor (a Word template's: the
 * document editor of features/wordEditor); the others live here.
 */
import { Suspense, useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Box, Button, CircularProgress, Container } from '@mui/material';
import { isValidId } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { lazyPage } from '../../app/background/chunkReload.ts';
import PlaceholderEditor from '../editor/PlaceholderEditor.tsx';
import WordEditor from '../wordEditor/WordEditor.tsx';
import { useWizardDetail } from './templateDetail.ts';
import EncryptedTemplateDialog from './EncryptedTemplateDialog.tsx';
import NoMatchingPlaceholdersDialog from './NoMatchingPlaceholdersDialog.tsx';
import Step1Template from './Step1Template.tsx';
import Step3Spreadsheet from './Step3Spreadsheet.tsx';
import Step4Generate from './Step4Generate.tsx';
import { useMergePoller } from './useMergeProgress.ts';
import { useWizardTemplate } from './useWizardTemplate.ts';
import WizardBottomBar from './WizardBottomBar.tsx';
import WizardStepper from './WizardStepper.tsx';
import { useRunStep } from './wizardHooks.ts';
import { useStepInUrl } from './useStepInUrl.ts';
import { pendingStepHandled } from './wizardSlice.ts';
import { useMailingPoller } from '../email/useMailingPoller.ts';

/** The data check (its grid and export) is loaded when first opened: the wizard does not carry it. */
const DataCheckDialog = lazyPage(() => import('../dataCheck/DataCheckDialog.tsx'));

function StepContent({ isNew }: { isNew: boolean }) {
  const step = useAppSelector((state) => state.wizard.activeStep);
  const template = useWizardDetail();
  const excel = template?.excel ?? null;
  if (step === 0 || !template) return <Step1Template isNew={isNew} />;
  // A Word template's fields are typed into its document (docs/word-templates.md#editing-in-the-browser).
  if (step === 1 && template.templateType === 'sfdt') return <WordEditor key={template.id} template={template} excel={excel && !excel.message ? excel : null} />;
  if (step === 1) return <PlaceholderEditor template={template} excel={excel && !excel.message ? excel : null} />;
  if (step === 2) return <Step3Spreadsheet />;
  return <Step4Generate key={template.id} />;
}

/** Steps asked for by the navbar's crumbs go through the same rules as the stepper. */
function usePendingStep(): void {
  const dispatch = useAppDispatch();
  const runStep = useRunStep();
  const pending = useAppSelector((state) => state.wizard.pendingStep);
  useEffect(() => {
    if (pending === null) return;
    dispatch(pendingStepHandled());
    void runStep(pending);
  }, [pending, dispatch, runStep]);
}

function Wizard({ templateId }: { templateId: string }) {
  const { t } = useTranslation('wizard');
  const load = useWizardTemplate(templateId);
  useMergePoller();
  useMailingPoller();
  usePendingStep();
  useStepInUrl(load.state === 'ready');
  const step = useAppSelector((state) => state.wizard.activeStep);
  const dataCheckOpen = useAppSelector((state) => state.wizard.dataCheckOpen);

  if (load.state === 'loading') {
    return <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}><CircularProgress aria-label={t('page.loading')} /></Box>;
  }
  if (load.state === 'failed') {
    return (
      <Container maxWidth="sm" sx={{ py: 4 }}>
        <Alert severity="error" action={<Button color="inherit" onClick={load.retry}>{t('page.retry')}</Button>}>{load.message}</Alert>
      </Container>
    );
  }
  return (
    <Container maxWidth={step === 1 ? false : 'lg'} sx={{ py: 3 }}>
      <WizardStepper />
      <StepContent isNew={templateId === 'new'} />
      <WizardBottomBar />
      <EncryptedTemplateDialog />
      <NoMatchingPlaceholdersDialog />
      {dataCheckOpen && <Suspense fallback={null}><DataCheckDialog /></Suspense>}
    </Container>
  );
}

export default function WizardPage() {
  const { templateId = '' } = useParams();
  if (templateId !== 'new' && !isValidId(templateId)) return <Navigate to="/" replace />;
  return <Wizard templateId={templateId} />;
}
