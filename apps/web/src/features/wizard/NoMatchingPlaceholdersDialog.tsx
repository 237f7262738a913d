/** No placeholder fills from a heading of the spreadsheet (docs/spreadsheets.md#column-matching): say so, offer step 2. */
import { useTranslation } from 'react-i18next';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { translateCode } from '../../i18n/errors.ts';
import { useWizardDetail } from './templateDetail.ts';
import { useRunStep } from './wizardHooks.ts';
import { setNoMatchingDialog } from './wizardSlice.ts';

const NO_HEADINGS: string[] = [];

export default function NoMatchingPlaceholdersDialog() {
  const { t } = useTranslation(['wizard', 'errors']);
  const dispatch = useAppDispatch();
  const runStep = useRunStep();
  const open = useAppSelector((state) => state.wizard.noMatchingDialogOpen);
  const headings = useWizardDetail()?.excel?.headers ?? NO_HEADINGS;
  const close = () => dispatch(setNoMatchingDialog(false));
  return (
    <Dialog open={open} onClose={close}>
      <DialogTitle>{t('noMatching.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translateCode('merge/no-matching-placeholders', undefined, t)}</DialogContentText>
        <DialogContentText sx={{ mt: 1 }}>{t('noMatching.headings', { headings: headings.join(', ') })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('noMatching.close')}</Button>
        <Button
          variant="contained"
          onClick={() => {
            close();
            void runStep(1);
          }}
        >
          {t('noMatching.edit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
