/**
 * /email-report, a tab of the account area (docs/email.md#email-report): the messages of
 * the last 30 days, the user's own or (admin) all their users', with tiles of counts, filters on
 * recipient, subject and status, a refresh, the CSV export of the visible columns and each message's
 * history. Offline, a message with an indeterminate progress bar shows until the server answers.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import {
  Alert, AlertTitle, Box, Button, FormControl, InputLabel, LinearProgress, MenuItem, Paper, Select, Stack, TextField, ToggleButton,
  ToggleButtonGroup, Typography,
} from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { gridFilteredSortedRowEntriesSelector, useGridApiRef } from '@mui/x-data-grid';
import { EMAIL_REPORT_DAYS, MESSAGE_STATUSES, type EmailEvent, type MessageStatus } from '@sheaf/shared';
import { ApiError } from '../../api/client.ts';
import { translateCode, translateError } from '../../i18n/errors.ts';
import AccountLayout from '../account/AccountLayout.tsx';
import { csvFileName, toCsv, type CsvColumn } from './csv.ts';
import MessageEventsDialog from './MessageEventsDialog.tsx';
import MessagesGrid from './MessagesGrid.tsx';
import ReportTiles from './ReportTiles.tsx';
import { emailReportQuery } from './api.ts';
import { filterEvents, hasFilters, NO_FILTERS, spreadsheetDate, type ReportFilters } from './reportRules.ts';

type Scope = 'me' | 'all';

function download(text: string, name: string) {
  // The byte order mark makes spreadsheet programs read the file as UTF-8.
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function EmailReportPage() {
  const { t, i18n } = useTranslation(['email', 'errors']);
  const apiRef = useGridApiRef();
  const [scope, setScope] = useState<Scope>('me');
  const [filters, setFilters] = useState<ReportFilters>(NO_FILTERS);
  const [open, setOpen] = useState<EmailEvent | null>(null);
  const report = useQuery(emailReportQuery(scope));
  // Offline: TanStack Query pauses the fetch until the browser is back online (or it failed on the network).
  const offline = report.fetchStatus === 'paused' || (report.error instanceof ApiError && report.error.isNetwork);
  const rows = useMemo(() => filterEvents(report.data?.events ?? [], filters), [report.data, filters]);
  const since = report.data ? new Date(report.data.since).toLocaleDateString(i18n.language, { dateStyle: 'medium' }) : null;
  const setFilter = (patch: Partial<ReportFilters>) => setFilters((old) => ({ ...old, ...patch }));

  /** The rows as the grid shows them (sorted), in the columns it shows. */
  function exportCsv() {
    const grid = apiRef.current;
    if (!grid) return;
    const visible = grid.getVisibleColumns();
    const columns: CsvColumn<EmailEvent>[] = visible.map((column) => ({
      header: column.headerName ?? column.field,
      value: (row) => {
        if (column.field === 'status') return t(`status.${row.status}`);
        if (column.field === 'date') return spreadsheetDate(row.date);
        const value = row[column.field as keyof EmailEvent];
        return typeof value === 'string' || typeof value === 'number' ? value : '';
      },
    }));
    const sorted = gridFilteredSortedRowEntriesSelector(apiRef).map((entry) => entry.model as EmailEvent);
    download(toCsv(columns, sorted), csvFileName());
  }

  return (
    <AccountLayout>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, flex: 1 }}>{t('report.title')}</Typography>
        <ToggleButtonGroup size="small" exclusive value={scope} onChange={(_, next: Scope | null) => next && setScope(next)} aria-label={t('report.scope')}>
          <ToggleButton value="me">{t('report.scopeMe')}</ToggleButton>
          <ToggleButton value="all">{t('report.scopeAll')}</ToggleButton>
        </ToggleButtonGroup>
        <Button startIcon={<RefreshIcon />} onClick={() => void report.refetch()} disabled={report.isFetching}>{t('report.refresh')}</Button>
        <Button variant="outlined" startIcon={<FileDownloadOutlinedIcon />} onClick={exportCsv} disabled={rows.length === 0}>{t('report.export')}</Button>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {since ? t('report.periodSince', { days: EMAIL_REPORT_DAYS, date: since }) : t('report.period', { days: EMAIL_REPORT_DAYS })}
      </Typography>
      {report.isFetching && !offline && <LinearProgress aria-label={t('report.loading')} sx={{ mb: 1 }} />}
      {offline && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="report-offline">
          <AlertTitle>{translateCode('offline', undefined, t)}</AlertTitle>
          {translateCode('checkConnection', undefined, t)}
          <LinearProgress sx={{ mt: 1 }} aria-label={t('report.reconnecting')} />
        </Alert>
      )}
      {report.isError && !offline && (
        <Alert severity="error" sx={{ mb: 2 }} action={<Button color="inherit" onClick={() => void report.refetch()}>{t('report.retry')}</Button>}>
          {translateError(report.error, t)}
        </Alert>
      )}
      {report.data && (
        <Stack spacing={2}>
          <ReportTiles counts={report.data.eventCounts} selected={filters.status} onPick={(status) => setFilter({ status })} />
          <Paper variant="outlined" sx={{ p: 1.5 }}>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} role="search" aria-label={t('report.filters')}>
              <TextField size="small" label={t('report.filterRecipient')} value={filters.recipient} onChange={(event) => setFilter({ recipient: event.target.value })} sx={{ flex: 1 }} />
              <TextField size="small" label={t('report.filterSubject')} value={filters.subject} onChange={(event) => setFilter({ subject: event.target.value })} sx={{ flex: 1 }} />
              <FormControl size="small" sx={{ minWidth: 180 }}>
                <InputLabel id="report-status-filter">{t('report.filterStatus')}</InputLabel>
                <Select labelId="report-status-filter" label={t('report.filterStatus')} value={filters.status} onChange={(event) => setFilter({ status: event.target.value as MessageStatus | '' })}>
                  <MenuItem value=""><em>{t('report.allStatuses')}</em></MenuItem>
                  {MESSAGE_STATUSES.map((status) => <MenuItem key={status} value={status}>{t(`status.${status}`)}</MenuItem>)}
                </Select>
              </FormControl>
              {hasFilters(filters) && <Button onClick={() => setFilters(NO_FILTERS)}>{t('report.clearFilters')}</Button>}
            </Stack>
          </Paper>
          <MessagesGrid
            apiRef={apiRef}
            rows={rows}
            loading={report.isFetching}
            showOwner={scope === 'all'}
            onOpen={setOpen}
            emptyText={hasFilters(filters) && (report.data.events.length > 0) ? t('report.noMatch') : t('report.empty', { days: EMAIL_REPORT_DAYS })}
          />
        </Stack>
      )}
      {!report.data && report.isPending && !offline && <Box sx={{ minHeight: 550 }} />}
      <MessageEventsDialog message={open} onClose={() => setOpen(null)} />
    </AccountLayout>
  );
}
