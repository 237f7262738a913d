/**
 * The issues as a grid (spec section 2): row, column, problem (the code in the user's language with its
 * parameters), value and suggestion. A skeleton until the first issue arrives; the grid is virtualised,
 * so 10,000 issues scroll as easily as ten. The row number (or Enter on any cell) opens the row's values.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Box, Link, Stack, Typography } from '@mui/material';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { DataIssue } from '@sheaf/shared';
import { gridLocaleText } from '../emailReport/gridLocale.ts';
import { visibleValue, type IssueRow } from './issues.ts';

/** The grid's "all rows" page size (MUI X: ALL_RESULTS_PAGE_VALUE); the MIT grid pages at most 100 otherwise. */
const ALL_ROWS = -1;

function NoIssues({ text }: { text: string }) {
  return (
    <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', color: 'text.secondary', p: 3 }} data-testid="data-check-empty">
      <TaskAltIcon sx={{ fontSize: 40, mb: 1 }} color="success" />
      <Typography>{text}</Typography>
    </Stack>
  );
}

interface Props {
  issues: readonly IssueRow[];
  loading: boolean;
  emptyText: string;
  problemText: (issue: DataIssue) => string;
  onShowRow: (row: number) => void;
}

export default function IssuesGrid({ issues, loading, emptyText, problemText, onShowRow }: Props) {
  const { t, i18n } = useTranslation('dataCheck');
  const columns = useMemo<GridColDef<IssueRow>[]>(() => [
    {
      field: 'row_number',
      headerName: t('column.row'),
      type: 'number',
      width: 90,
      align: 'left',
      headerAlign: 'left',
      // The grid moves the tab stop between cells (roving tabIndex): the link takes the cell's.
      renderCell: ({ row, tabIndex }) => (
        <Link component="button" type="button" tabIndex={tabIndex} onClick={() => onShowRow(row.row_number)} aria-label={t('showRow', { row: String(row.row_number) })}>
          {row.row_number}
        </Link>
      ),
    },
    { field: 'column_name', headerName: t('column.column'), minWidth: 140, flex: 0.8 },
    { field: 'problem', headerName: t('column.problem'), minWidth: 260, flex: 2, valueGetter: (_value, row) => problemText(row) },
    { field: 'actual_value', headerName: t('column.value'), minWidth: 140, flex: 1, valueFormatter: (value: string) => visibleValue(value) },
    { field: 'expected_value', headerName: t('column.suggestion'), minWidth: 140, flex: 1 },
  ], [t, problemText, onShowRow]);

  return (
    // Busy while the skeleton shows (nothing found yet): assistive technology waits for the rows.
    <Box sx={{ height: 440, minWidth: 0 }} aria-busy={loading}>
      <DataGrid
        rows={issues}
        columns={columns}
        loading={loading}
        localeText={gridLocaleText(i18n.language)}
        slotProps={{ loadingOverlay: { variant: 'skeleton', noRowsVariant: 'skeleton' } }}
        slots={{ noRowsOverlay: () => <NoIssues text={emptyText} />, noResultsOverlay: () => <NoIssues text={emptyText} /> }}
        // AI review lines can arrive after later rows' rule lines: the grid keeps row order itself.
        initialState={{ pagination: { paginationModel: { page: 0, pageSize: ALL_ROWS } }, sorting: { sortModel: [{ field: 'row_number', sort: 'asc' }] } }}
        pageSizeOptions={[ALL_ROWS]}
        hideFooter
        disableColumnFilter
        disableRowSelectionOnClick
        // Enter on any cell of an issue opens its row, as a click on its number does.
        onCellKeyDown={({ row, field }, event) => {
          if (event.key === 'Enter' && field !== 'row_number') onShowRow(row.row_number);
        }}
        getRowHeight={() => 'auto'}
        getEstimatedRowHeight={() => 40}
        density="compact"
        sx={{ bgcolor: 'background.paper', '& .MuiDataGrid-cell': { py: 0.75, whiteSpace: 'normal', wordBreak: 'break-word' } }}
        aria-label={t('grid.label')}
        data-testid="data-check-grid"
      />
    </Box>
  );
}
