/** "Suggest improvement": the user writes an idea; it opens their mail program addressed to support. */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { mailtoSupport, SUPPORT_EMAIL } from '../../app/supportContact.ts';

export default function SuggestImprovementDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('navbar');
  const [idea, setIdea] = useState('');
  const close = () => {
    setIdea('');
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm">
      <DialogTitle>{t('suggest.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('suggest.intro', { email: SUPPORT_EMAIL })}</DialogContentText>
        <TextField label={t('suggest.idea')} multiline minRows={4} value={idea} onChange={(event) => setIdea(event.target.value)} autoFocus />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('suggest.cancel')}</Button>
        <Button variant="contained" disabled={!idea.trim()} href={mailtoSupport(t('suggest.subject'), idea)} onClick={() => setTimeout(close)}>
          {t('suggest.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
