/**
 * The table of messages (docs/email.md#email-report): messageId (hidden), recipient,
 * subject, status and date/time, newest first, every row on one page (the MIT grid allows pages of
 * at most 100 rows, or "all": the grid is virtualised, so all it is). Filters live above the grid
 * (the MIT grid filters one column at a time); a click or Enter on a row opens its history.
 */
import { useMemo, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Box, Stack, Typography } from '@mui/material';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import { DataGrid, type GridApi, type GridColDef } from '@mui/x-data-grid';
import type { EmailEvent } from '@sheaf/shared';
import { gridLocaleText } from './gridLocale.ts';
import { StatusChip } from './ReportTiles.tsx';

/** The grid's "all rows" page size (MUI X: ALL_RESULTS_PAGE_VALUE). */
const ALL_ROWS = -1;

function NoRows({ text }: { text: string }) {
  return (
    <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', color: 'text.secondary', p: 3 }} data-testid="report-empty">
      <InboxOutlinedIcon sx={{ fontSize: 48, mb: 1 }} />
      <Typography>{text}</Typography>
    </Stack>
  );
}

interface Props {
  rows: readonly EmailEvent[];
  loading?: boolean;
  /** An admin's report of all their users: who sent each message. */
  showOwner?: boolean;
  onOpen?: (event: EmailEvent) => void;
  apiRef?: RefObject<GridApi | null>;
  emptyText: string;
  /** The screen's sizes (docs/email.md#email-report): min height 550 and min width 850 on the report page. */
  minHeight?: number;
  minWidth?: number;
  height?: number | string;
}

export default function MessagesGrid({ rows, loading, showOwner = false, onOpen, apiRef, emptyText, minHeight = 550, minWidth = 850, height = 'calc(100vh - 420px)' }: Props) {
  const { t, i18n } = useTranslation('email');
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }), [i18n.language]);
  const columns = useMemo<GridColDef<EmailEvent>[]>(() => [
    { field: 'messageId', headerName: t('report.column.messageId'), minWidth: 200 },
    ...(showOwner ? [{ field: 'owner', headerName: t('report.column.owner'), flex: 1, minWidth: 180 } satisfies GridColDef<EmailEvent>] : []),
    { field: 'recipient', headerName: t('report.column.recipient'), flex: 1.2, minWidth: 200 },
    { field: 'subject', headerName: t('report.column.subject'), flex: 1.5, minWidth: 200 },
    {
      field: 'status',
      headerName: t('report.column.status'),
      minWidth: 153,
      width: 160,
      valueFormatter: (value: EmailEvent['status']) => t(`status.${value}`),
      renderCell: ({ row }) => <StatusChip status={row.status} />,
    },
    {
      field: 'date',
      headerName: t('report.column.date'),
      type: 'dateTime',
      minWidth: 155,
      width: 200,
      valueGetter: (value: string) => new Date(value),
      valueFormatter: (value: Date) => dateFormat.format(value),
    },
  ], [t, showOwner, dateFormat]);

  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Box sx={{ minWidth, height, minHeight }}>
        <DataGrid
          apiRef={apiRef}
          rows={rows}
          columns={columns}
          getRowId={(row) => row.messageId}
          loading={loading}
          localeText={gridLocaleText(i18n.language)}
          initialState={{
            sorting: { sortModel: [{ field: 'date', sort: 'desc' }] },
            columns: { columnVisibilityModel: { messageId: false } },
            pagination: { paginationModel: { page: 0, pageSize: ALL_ROWS } },
          }}
          pageSizeOptions={[{ value: ALL_ROWS, label: t('report.allRows') }]}
          hideFooter
          disableColumnFilter
          disableRowSelectionOnClick
          onRowClick={onOpen ? ({ row }) => onOpen(row) : undefined}
          onCellKeyDown={onOpen ? ({ row }, event) => {
            if (event.key === 'Enter') onOpen(row);
          } : undefined}
          slots={{ noRowsOverlay: () => <NoRows text={emptyText} /> }}
          sx={{ '& .MuiDataGrid-row': { cursor: onOpen ? 'pointer' : 'default' }, bgcolor: 'background.paper' }}
          aria-label={t('report.table')}
        />
      </Box>
    </Box>
  );
}
