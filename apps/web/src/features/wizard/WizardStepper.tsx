/** The four steps, clickable when the rules allow entering them (the same rules the navbar's crumbs follow). */
import { useTranslation } from 'react-i18next';
import { Step, StepButton, Stepper } from '@mui/material';
import { useAppSelector } from '../../app/hooks.ts';
import { stepContext } from './stepNavigation.ts';
import { useWizardDetail } from './templateDetail.ts';
import { isMergeRunning, stepBlockReason, WIZARD_STEPS } from './stepRules.ts';
import { useRunStep } from './wizardHooks.ts';

export default function WizardStepper() {
  const { t } = useTranslation('wizard');
  const runStep = useRunStep();
  const wizard = useAppSelector((state) => state.wizard);
  const detail = useWizardDetail();
  const context = stepContext(wizard, detail);
  // A Word template's fields are in its document: step 2 edits them, there are no placeholders.
  const word = detail?.templateType === 'sfdt';
  const running = isMergeRunning(wizard.mailMergeStatus);
  return (
    <Stepper nonLinear activeStep={wizard.activeStep} alternativeLabel sx={{ mb: 3 }} aria-label={t('steps.label')}>
      {WIZARD_STEPS.map((name, index) => {
        const blocked = stepBlockReason(index, context) !== null;
        return (
          <Step key={name} completed={index < wizard.activeStep && !blocked}>
            <StepButton
              onClick={() => void runStep(index)}
              disabled={index === wizard.activeStep || blocked || running || wizard.stepChanging}
              aria-current={index === wizard.activeStep ? 'step' : undefined}
            >
              {t(`steps.${word && name === 'placeholders' ? 'fields' : name}`)}
            </StepButton>
          </Step>
        );
      })}
    </Stepper>
  );
}
