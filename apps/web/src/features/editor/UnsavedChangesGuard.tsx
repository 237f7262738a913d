/**
 * Leaving the editor with unsaved placeholders asks first: a link, "Go home" or the browser's Back
 * to another page is held (React Router's blocker) until the user saves, discards or stays; closing
 * or reloading the tab gets the browser's own question (beforeunload). Moving between wizard steps
 * stays on the same page and saves through the step change itself, so it is not held here.
 */
import { useEffect, useState } from 'react';
import { useBlocker } from 'react-router';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { closeTemplate, selectIsChanged } from './editorSlice.ts';
import { saveEditorChanges } from './save.ts';
import { discardWordEdits, hasWordEdits, useWordEdits } from '../wordEditor/wordEdits.ts';

export default function UnsavedChangesGuard({ templateId }: { templateId: string }) {
  const { t } = useTranslation('editor');
  const dispatch = useAppDispatch();
  const placeholdersChanged = useAppSelector(selectIsChanged);
  // A Word template's unsaved document counts too (features/wordEditor).
  useWordEdits();
  const changed = placeholdersChanged || hasWordEdits(templateId);
  const [saving, setSaving] = useState(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => changed && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!changed) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [changed]);

  const open = blocker.state === 'blocked';
  const stay = () => blocker.state === 'blocked' && blocker.reset();
  const saveAndLeave = async () => {
    setSaving(true);
    const result = await dispatch(saveEditorChanges(templateId));
    setSaving(false);
    // A failed save said why in the snackbar; the user stays with the edits.
    if (result === 'failed') stay();
    else if (blocker.state === 'blocked') blocker.proceed();
  };
  const discard = () => {
    dispatch(closeTemplate());
    discardWordEdits(templateId);
    if (blocker.state === 'blocked') blocker.proceed();
  };

  return (
    <Dialog open={open} onClose={saving ? undefined : stay} aria-labelledby="unsaved-changes-title" maxWidth="xs" fullWidth>
      <DialogTitle id="unsaved-changes-title">{t('leave.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('leave.description')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={stay} disabled={saving}>{t('leave.stay')}</Button>
        <Button onClick={discard} color="error" disabled={saving}>{t('leave.discard')}</Button>
        <Button
          onClick={() => void saveAndLeave()}
          variant="contained"
          disabled={saving}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
          autoFocus
        >
          {t('leave.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
