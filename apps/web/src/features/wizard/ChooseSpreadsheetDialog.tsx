/** "Choose from another template" (docs/spreadsheets.md#step-3, step 3): reuse a spreadsheet already uploaded. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import {
  Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemButton, ListItemText, Typography,
} from '@mui/material';
import type { ExcelMeta } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { spreadsheetsQuery } from './api.ts';
import { translateError } from '../../i18n/errors.ts';
import { formatBytes } from './format.ts';

interface ChooseSpreadsheetDialogProps {
  open: boolean;
  templateId: string;
  onClose: () => void;
  /** The sheet was copied to this template. */
  onChosen: (excel: ExcelMeta) => void | Promise<void>;
}

export default function ChooseSpreadsheetDialog({ open, templateId, onClose, onChosen }: ChooseSpreadsheetDialogProps) {
  const { t, i18n } = useTranslation(['wizard', 'errors']);
  const [copying, setCopying] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const choices = useQuery({ ...spreadsheetsQuery(), enabled: open });
  const others = (choices.data?.spreadsheets ?? []).filter((choice) => choice.templateId !== templateId);

  async function choose(sourceTemplateId: string) {
    setCopying(sourceTemplateId);
    setError(null);
    try {
      const excel = await api.call('copyExcel', { params: { id: templateId }, body: { sourceTemplateId } });
      await onChosen(excel);
    } catch (failure) {
      setError(translateError(failure, t));
    } finally {
      setCopying(null);
    }
  }

  return (
    <Dialog open={open} onClose={() => copying === null && onClose()} fullWidth maxWidth="sm">
      <DialogTitle>{t('chooseSheet.title')}</DialogTitle>
      <DialogContent dividers>
        {choices.isPending && <CircularProgress size={24} aria-label={t('chooseSheet.loading')} />}
        {choices.isError && <Alert severity="error">{translateError(choices.error, t)}</Alert>}
        {choices.isSuccess && others.length === 0 && <Typography color="text.secondary">{t('chooseSheet.empty')}</Typography>}
        <List>
          {others.map((choice) => (
            <ListItem key={choice.templateId} disablePadding>
              <ListItemButton disabled={copying !== null} onClick={() => void choose(choice.templateId)}>
                <ListItemText
                  primary={choice.excelName}
                  secondary={t('chooseSheet.details', {
                    template: choice.templateName,
                    rows: choice.totalRowCount.toLocaleString(i18n.language),
                    size: formatBytes(choice.excelFileSize, i18n.language),
                  })}
                />
                {copying === choice.templateId && <CircularProgress size={20} aria-label={t('chooseSheet.copying')} />}
              </ListItemButton>
            </ListItem>
          ))}
        </List>
        {error && <Alert severity="error" role="alert">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={copying !== null}>{t('chooseSheet.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
