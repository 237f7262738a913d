/**
 * Where an issue links to: its row's values, every heading with its cell, the flagged cells marked
 * (in words and colour) with their problems. The rows come from the spreadsheet step's own query
 * (the preview's), fetched the first time a row is opened.
 */
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import {
  Alert, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography,
} from '@mui/material';
import type { DataIssue, ExcelMeta } from '@sheaf/shared';
import { translateError } from '../../i18n/errors.ts';
import { sheetPreviewQuery } from '../wizard/api.ts';
import { visibleValue } from './issues.ts';

interface Props {
  templateId: string;
  excel: ExcelMeta;
  row: number;
  issues: readonly DataIssue[];
  problemText: (issue: DataIssue) => string;
  onClose: () => void;
}

function RowValues({ templateId, excel, row, issues, problemText }: Omit<Props, 'onClose'>) {
  const { t } = useTranslation(['dataCheck', 'errors']);
  const sheet = useQuery(sheetPreviewQuery(templateId, excel));
  if (sheet.isPending) return <CircularProgress size={24} aria-label={t('rowDialog.loading')} />;
  if (sheet.isError) return <Alert severity="error">{translateError(sheet.error, t)}</Alert>;
  // An issue of the template as a whole (a column it names that the sheet lacks) is at the header row.
  if (row < sheet.data.firstRow) {
    return <>{issues.map((issue, index) => <Alert key={index} severity="warning" sx={{ mb: 1 }}>{problemText(issue)}</Alert>)}<Typography>{t('rowDialog.headerRow')}</Typography></>;
  }
  const cells = sheet.data.excelSheet[row - sheet.data.firstRow];
  if (!cells) return <Alert severity="info">{t('rowDialog.missing')}</Alert>;
  const problemsOf = (heading: string) => issues.filter((issue) => issue.column_name === heading);
  const headings = sheet.data.headers;
  // Issues no cell of the table shows (a column the template names but the sheet lacks).
  const shown = new Set(headings.flatMap(problemsOf));
  const elsewhere = issues.filter((issue) => !shown.has(issue));
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={t('rowDialog.table', { row: String(row) })}>
          <TableHead>
            <TableRow>
              <TableCell>{t('rowDialog.heading')}</TableCell>
              <TableCell>{t('rowDialog.value')}</TableCell>
              <TableCell>{t('rowDialog.problems')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {headings.map((heading, column) => {
              const problems = problemsOf(heading);
              const value = cells[column];
              return (
                <TableRow key={column} selected={problems.length > 0}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>{heading}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{value === null || value === undefined ? '' : visibleValue(String(value))}</TableCell>
                  <TableCell>
                    {problems.length > 0 && <Chip size="small" color="warning" label={t('rowDialog.flagged')} sx={{ mr: 1, mb: 0.5 }} />}
                    {problems.map((issue, index) => <Typography key={index} variant="body2">{problemText(issue)}</Typography>)}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {elsewhere.map((issue, index) => <Alert key={index} severity="warning" sx={{ mt: 1 }}>{problemText(issue)}</Alert>)}
    </>
  );
}

export default function RowDialog({ onClose, ...props }: Props) {
  const { t } = useTranslation('dataCheck');
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="data-check-row-title">
      <DialogTitle id="data-check-row-title">{t('rowDialog.title', { row: String(props.row) })}</DialogTitle>
      <DialogContent>
        <RowValues {...props} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
