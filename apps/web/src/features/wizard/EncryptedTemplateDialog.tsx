/**
 * Unlocking a password-protected template (docs/library.md#encrypted-templates): a password field,
 * submit disabled while empty or submitting, 'Wrong password' under the field. On success the template
 * is stored unlocked with its new thumbnail, the dialog closes and the wizard continues to step 2.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { queryKeys } from '../../api/queryKeys.ts';
import { api, ApiError } from '../../api/client.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { useRunStep } from './wizardHooks.ts';
import { patchTemplateDetail, templateReceived, useWizardDetail } from './templateDetail.ts';
import { setOpenEncryptionDialog, templateUnlocked } from './wizardSlice.ts';

export default function EncryptedTemplateDialog() {
  const { t } = useTranslation(['wizard', 'errors']);
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  const runStep = useRunStep();
  const open = useAppSelector((state) => state.wizard.openEncryptionDialog);
  const template = useWizardDetail();
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);

  function close() {
    if (submitting) return;
    dispatch(setOpenEncryptionDialog(false));
    setPassword('');
    setFieldError(null);
    setGeneralError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!template || password === '' || submitting) return;
    setSubmitting(true);
    setFieldError(null);
    setGeneralError(null);
    try {
      await api.call('decryptTemplate', { params: { id: template.id }, body: { templateId: template.id, password } });
      patchTemplateDetail(template.id, { isEncrypted: false }, queryClient);
      dispatch(templateUnlocked());
      setPassword('');
      // The unlocked file has its own thumbnail, page sizes and checksum.
      const detail = await api.call('getTemplate', { params: { id: template.id } }).catch(() => null);
      if (detail) dispatch(templateReceived(detail, queryClient));
      void queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() });
      await runStep(1);
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'template/wrong-password' || error.code === 'auth/wrong-password')) {
        setFieldError(translateCode('template/wrong-password', undefined, t));
      } else {
        setGeneralError(translateError(error, t));
      }
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Dialog open={open && template !== null} onClose={close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('decrypt.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('decrypt.description')}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            type="password"
            label={t('decrypt.password')}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setFieldError(null);
            }}
            error={fieldError !== null}
            helperText={fieldError ?? ' '}
            autoComplete="off"
          />
          {generalError && <Alert severity="error" role="alert">{generalError}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={submitting}>{t('decrypt.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={password === '' || submitting}>
            {submitting ? t('decrypt.submitting') : t('decrypt.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
