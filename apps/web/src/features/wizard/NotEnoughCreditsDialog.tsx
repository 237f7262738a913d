/** Not enough credits (docs/plans.md#credits): offer to generate only the first N documents with what is left. */
import { useTranslation } from 'react-i18next';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

interface NotEnoughCreditsDialogProps {
  /** Credits left; null closes the dialog. */
  available: number | null;
  needed: number;
  onCancel: () => void;
  onGenerateFirst: () => void;
}

export default function NotEnoughCreditsDialog({ available, needed, onCancel, onGenerateFirst }: NotEnoughCreditsDialogProps) {
  const { t, i18n } = useTranslation('wizard');
  const format = (value: number) => value.toLocaleString(i18n.language);
  return (
    <Dialog open={available !== null} onClose={onCancel}>
      <DialogTitle>{t('notEnoughCredits.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {t('notEnoughCredits.description', { available: format(available ?? 0), needed: format(needed) })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('notEnoughCredits.cancel')}</Button>
        <Button variant="contained" onClick={onGenerateFirst}>{t('notEnoughCredits.generateFirst', { count: available ?? 0, formatted: format(available ?? 0) })}</Button>
      </DialogActions>
    </Dialog>
  );
}
