/**
 * The attached spreadsheet: name, size, rows, header row and headings, and its first rows in a small
 * table (from GET /templates/:id/excel). Large sheets load the preview on request only.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import {
  Alert, Box, Button, Card, CardContent, Chip, CircularProgress, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography,
} from '@mui/material';
import type { ExcelMeta } from '@sheaf/shared';
import { sheetPreviewQuery } from './api.ts';
import { translateError } from '../../i18n/errors.ts';
import { formatBytes } from './format.ts';

const PREVIEW_ROWS = 5;
/** Above this many rows the whole sheet is not fetched just for a preview unless asked. */
const AUTO_PREVIEW_MAX_ROWS = 2_000;

function SheetPreview({ templateId, excel }: { templateId: string; excel: ExcelMeta }) {
  const { t } = useTranslation(['wizard', 'errors']);
  const sheet = useQuery(sheetPreviewQuery(templateId, excel));
  if (sheet.isPending) return <CircularProgress size={24} aria-label={t('sheet.previewLoading')} />;
  if (sheet.isError) return <Alert severity="error">{translateError(sheet.error, t)}</Alert>;
  const rows = sheet.data.excelSheet.slice(0, PREVIEW_ROWS);
  return (
    <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label={t('sheet.previewTable')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('sheet.rowNumber')}</TableCell>
            {sheet.data.headers.map((heading, index) => <TableCell key={index} sx={{ fontWeight: 600 }}>{heading}</TableCell>)}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, rowIndex) => (
            <TableRow key={rowIndex}>
              <TableCell>{sheet.data.firstRow + rowIndex}</TableCell>
              {sheet.data.headers.map((_heading, column) => <TableCell key={column}>{row[column] === null || row[column] === undefined ? '' : String(row[column])}</TableCell>)}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export default function SpreadsheetSummary({ templateId, excel }: { templateId: string; excel: ExcelMeta }) {
  const { t, i18n } = useTranslation('wizard');
  const [previewAsked, setPreviewAsked] = useState(false);
  const showPreview = previewAsked || excel.totalRowCount <= AUTO_PREVIEW_MAX_ROWS;
  return (
    <Card variant="outlined" data-testid="current-spreadsheet">
      <CardContent>
        <Typography variant="h6" component="h2">{excel.excelName}</Typography>
        <Stack direction="row" spacing={3} sx={{ my: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2">{t('sheet.size', { size: formatBytes(excel.excelFileSize, i18n.language) })}</Typography>
          <Typography variant="body2">{t('sheet.rows', { count: excel.totalRowCount, formatted: excel.totalRowCount.toLocaleString(i18n.language) })}</Typography>
          <Typography variant="body2">{t('sheet.headerRow', { row: excel.headersRowNo })}</Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary">{t('sheet.headerRowHint')}</Typography>
        <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 0.5 }} aria-label={t('sheet.headings')}>
          {excel.headers.map((heading, index) => <Chip key={index} label={heading} size="small" variant="outlined" />)}
        </Box>
        <Box sx={{ mt: 2 }}>
          {showPreview
            ? <SheetPreview templateId={templateId} excel={excel} />
            : <Button size="small" onClick={() => setPreviewAsked(true)}>{t('sheet.showPreview')}</Button>}
        </Box>
      </CardContent>
    </Card>
  );
}
