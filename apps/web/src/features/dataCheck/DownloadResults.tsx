/**
 * The download of the check's results, always offered with the spec's warning: the file holds the
 * sheet's own values (the flagged cells), so it deserves the care the spreadsheet does. CSV, or XLSX
 * (its writer is loaded on the first click). The issues shown (filters applied) are what is saved.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Stack, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import type { DataIssue } from '@sheaf/shared';
import { useNotify } from '../../app/snackbar.tsx';
import { saveBlob } from '../home/download.ts';
import { exportFileName, exportTable, toCsvText } from './exportFile.ts';

interface Props {
  issues: readonly DataIssue[];
  /** The issues are complete (the check ended). */
  ready: boolean;
  filtered: boolean;
  sheetName: string;
  problemText: (issue: DataIssue) => string;
}

export default function DownloadResults({ issues, ready, filtered, sheetName, problemText }: Props) {
  const { t } = useTranslation('dataCheck');
  const notify = useNotify();
  const [making, setMaking] = useState(false);

  const table = () => exportTable(issues, {
    header: { row: t('column.row'), column: t('column.column'), kind: t('column.kind'), problem: t('column.problem'), value: t('column.value'), suggestion: t('column.suggestion') },
    kind: (issue) => t(`kind.${issue.kind}`),
    problem: problemText,
  });

  function downloadCsv() {
    saveBlob(new Blob([toCsvText(table())], { type: 'text/csv;charset=utf-8' }), exportFileName(sheetName, 'csv'));
  }

  async function downloadXlsx() {
    setMaking(true);
    try {
      const { xlsxBytes, XLSX_TYPE } = await import('./xlsxWriter.ts');
      const bytes = xlsxBytes(table(), t('download.sheet'));
      saveBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: XLSX_TYPE }), exportFileName(sheetName, 'xlsx'));
    } catch {
      notify('error', t('download.failure'));
    } finally {
      setMaking(false);
    }
  }

  return (
    <Stack spacing={1}>
      <Alert severity="warning" role="note" data-testid="data-check-download-warning">{t('download.warning', { name: sheetName })}</Alert>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Button variant="outlined" startIcon={<DownloadIcon />} disabled={!ready} onClick={downloadCsv}>{t('download.csv')}</Button>
        <Button variant="outlined" startIcon={<DownloadIcon />} disabled={!ready || making} onClick={() => void downloadXlsx()}>{t('download.xlsx')}</Button>
        <Typography variant="body2" color="text.secondary">
          {!ready ? t('download.whenDone') : filtered ? t('download.filtered', { count: issues.length }) : t('download.all', { count: issues.length })}
        </Typography>
      </Stack>
    </Stack>
  );
}
