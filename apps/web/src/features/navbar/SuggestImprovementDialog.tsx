/** "Suggest improvement": the support request form with its own topic, in a dialog (docs/support.md). */
import { Dialog, DialogContent, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import SupportRequestForm from '../help/SupportRequestForm.tsx';

export default function SuggestImprovementDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('navbar');
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="suggest-improvement-title">
      <DialogTitle id="suggest-improvement-title">{t('suggest.title')}</DialogTitle>
      <DialogContent>
        {/* Mounted only while open: each opening starts a fresh form. */}
        {open && <SupportRequestForm topic="improvement" onCancel={onClose} autoFocus />}
      </DialogContent>
    </Dialog>
  );
}
