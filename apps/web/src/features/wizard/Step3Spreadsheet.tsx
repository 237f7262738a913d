/**
 * Step 3: the spreadsheet. Upload or replace (every rejection in the catalogue's words), reuse one
 * from another template, delete, and see what is attached. Two remembered options act after an
 * upload: go on to step 4, or go on and start the merge at once.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert, Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, FormGroup, Stack, Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import FolderCopyOutlinedIcon from '@mui/icons-material/FolderCopyOutlined';
import FactCheckOutlinedIcon from '@mui/icons-material/FactCheckOutlined';
import type { ExcelMeta } from '@sheaf/shared';
import { queryKeys } from '../../api/queryKeys.ts';
import { api } from '../../api/client.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateError } from '../../i18n/errors.ts';
import ChooseSpreadsheetDialog from './ChooseSpreadsheetDialog.tsx';
import SpreadsheetSummary from './SpreadsheetSummary.tsx';
import WizardDropzone from './WizardDropzone.tsx';
import { LAST_STEP } from './stepRules.ts';
import { useMaxUploadBytes, useRunStep, useStoredFlag } from './wizardHooks.ts';
import { sheetReceived, useWizardDetail } from './templateDetail.ts';
import { setAutoStartMerge, setDataCheckOpen } from './wizardSlice.ts';

export const GO_TO_STEP_4_KEY = 'sheaf.wizard.goToStep4AfterUpload';
export const START_MERGE_KEY = 'sheaf.wizard.startMergeAfterUpload';

export default function Step3Spreadsheet() {
  const { t } = useTranslation(['wizard', 'errors']);
  const { t: tCheck } = useTranslation('dataCheck');
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const runStep = useRunStep();
  const maxBytes = useMaxUploadBytes();
  const template = useWizardDetail();
  const excel = template?.excel ?? null;
  const [goToStep4, setGoToStep4] = useStoredFlag(GO_TO_STEP_4_KEY);
  const [startMerge, setStartMerge] = useStoredFlag(START_MERGE_KEY);
  const [choosing, setChoosing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  if (!template) return null;
  const templateId = template.id;
  const readable = excel && !excel.message ? excel : null;

  async function sheetAttached(meta: ExcelMeta) {
    dispatch(sheetReceived(templateId, meta, queryClient));
    void queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.spreadsheets });
    if (meta.message) return;
    if (startMerge) {
      dispatch(setAutoStartMerge(true));
      const outcome = await runStep(LAST_STEP);
      if (outcome.kind !== 'changed') dispatch(setAutoStartMerge(false));
    } else if (goToStep4) {
      await runStep(LAST_STEP);
    }
  }

  const upload = async (file: File, onProgress: (fraction: number) => void) => {
    const meta = await api.call('uploadExcel', { params: { id: templateId }, file, onUploadProgress: onProgress });
    notify('success', t('sheet.uploadSuccess'));
    await sheetAttached(meta);
  };

  async function remove() {
    setDeleting(true);
    try {
      await api.call('deleteExcel', { params: { id: templateId } });
      dispatch(sheetReceived(templateId, null, queryClient));
      void queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() });
      notify('success', t('sheet.deleteSuccess'));
      setConfirmDelete(false);
    } catch (error) {
      notify('error', `${t('sheet.deleteFailure')} ${translateError(error, t)}`);
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">{t('sheet.title')}</Typography>
      {excel?.message && <Alert severity="error" role="alert">{excel.message}</Alert>}
      {readable && <SpreadsheetSummary templateId={templateId} excel={readable} />}
      {!readable && <Typography color="text.secondary">{t('sheet.headerRowNow')}</Typography>}
      <WizardDropzone
        kind="sheet"
        label={readable ? t('sheet.replaceLabel') : t('sheet.dropLabel')}
        maxBytes={maxBytes}
        upload={upload}
        compact={readable !== null}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        {/* The data check (docs/data-check.md#the-dialog): every row against the template before anything is made. */}
        {readable && <Button variant="contained" startIcon={<FactCheckOutlinedIcon />} onClick={() => dispatch(setDataCheckOpen(true))}>{tCheck('open')}</Button>}
        <Button variant="outlined" startIcon={<FolderCopyOutlinedIcon />} onClick={() => setChoosing(true)}>{t('sheet.chooseOther')}</Button>
        {excel && (
          <Button variant="outlined" color="error" startIcon={<DeleteOutlineIcon />} onClick={() => setConfirmDelete(true)}>{t('sheet.delete')}</Button>
        )}
      </Stack>
      <Box>
        <FormGroup>
          <FormControlLabel control={<Checkbox checked={goToStep4} onChange={(event) => setGoToStep4(event.target.checked)} />} label={t('sheet.goToStep4')} />
          <FormControlLabel control={<Checkbox checked={startMerge} onChange={(event) => setStartMerge(event.target.checked)} />} label={t('sheet.startMerge')} />
        </FormGroup>
      </Box>
      <ChooseSpreadsheetDialog
        open={choosing}
        templateId={templateId}
        onClose={() => setChoosing(false)}
        onChosen={async (meta) => {
          setChoosing(false);
          notify('success', t('chooseSheet.success'));
          await sheetAttached(meta);
        }}
      />
      <Dialog open={confirmDelete} onClose={() => !deleting && setConfirmDelete(false)}>
        <DialogTitle>{t('sheet.deleteTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('sheet.deleteQuestion', { name: excel?.excelName ?? '' })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)} disabled={deleting}>{t('sheet.cancel')}</Button>
          <Button color="error" variant="contained" onClick={() => void remove()} disabled={deleting}>{t('sheet.deleteConfirm')}</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
