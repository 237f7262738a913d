/** The events grid: every status one message went through, oldest first, with the server's details. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { EmailEvent } from '@sheaf/shared';
import { messageEventsQuery } from './api.ts';
import { translateError } from '../../i18n/errors.ts';
import { gridLocaleText } from './gridLocale.ts';
import { StatusChip } from './ReportTiles.tsx';

interface HistoryRow {
  id: number;
  status: EmailEvent['status'];
  date: string;
  detail: string | null;
}

export default function MessageEventsDialog({ message, onClose }: { message: EmailEvent | null; onClose: () => void }) {
  const { t, i18n } = useTranslation(['email', 'errors']);
  const history = useQuery(messageEventsQuery(message?.messageId));
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }), [i18n.language]);
  const rows: HistoryRow[] = (history.data?.events ?? []).map((event, index) => ({ id: index, status: event.status, date: event.date, detail: event.detail }));
  const columns: GridColDef<HistoryRow>[] = [
    { field: 'status', headerName: t('report.column.status'), minWidth: 153, renderCell: ({ row }) => <StatusChip status={row.status} />, valueFormatter: (value: HistoryRow['status']) => t(`status.${value}`) },
    { field: 'date', headerName: t('report.column.date'), minWidth: 190, type: 'dateTime', valueGetter: (value: string) => new Date(value), valueFormatter: (value: Date) => dateFormat.format(value) },
    { field: 'detail', headerName: t('report.column.detail'), flex: 1, minWidth: 220, valueFormatter: (value: string | null) => value ?? '' },
  ];
  return (
    <Dialog open={message !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="message-events-title">
      <DialogTitle id="message-events-title">{t('report.historyTitle')}</DialogTitle>
      <DialogContent>
        {message && (
          <Box sx={{ mb: 2 }}>
            <Typography><strong>{t('report.column.recipient')}:</strong> {message.recipient}</Typography>
            <Typography><strong>{t('report.column.subject')}:</strong> {message.subject}</Typography>
            <Typography variant="body2" color="text.secondary">{t('report.rowNumber', { row: message.rowNumber })}</Typography>
          </Box>
        )}
        {history.isError ? <Alert severity="error">{translateError(history.error, t)}</Alert> : (
          <Box>
            <DataGrid
              autoHeight
              rows={rows}
              columns={columns}
              loading={history.isPending}
              localeText={gridLocaleText(i18n.language)}
              initialState={{ sorting: { sortModel: [{ field: 'date', sort: 'asc' }] } }}
              hideFooter
              disableColumnFilter
              disableRowSelectionOnClick
              getRowHeight={() => 'auto'}
              sx={{ '& .MuiDataGrid-cell': { py: 1, display: 'flex', alignItems: 'center' } }}
              aria-label={t('report.historyTable')}
            />
          </Box>
        )}
      </DialogContent>
      <DialogActions><Button onClick={onClose}>{t('report.close')}</Button></DialogActions>
    </Dialog>
  );
}
