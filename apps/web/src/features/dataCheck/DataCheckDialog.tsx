/**
 * Step 3's data-check dialog (spec section 2; docs/data-check.md#the-dialog): every row of the sheet is
 * checked against the template, the file name, the passwords and the email while the issues stream
 * into a grid (a skeleton until the first one), with filters by column and kind, a summary, each
 * issue linked to its row, the download with its warning, and then "Exclude flagged rows" (the merge's
 * rows without them) or "Go on anyway". Closing the dialog stops the check.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Stack, Typography } from '@mui/material';
import type { DataIssue, ExcelMeta, TemplateDetail } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateCode } from '../../i18n/errors.ts';
import { useWizardDetail } from '../wizard/templateDetail.ts';
import { dataCheckCompleted, rowSelectionChanged, setDataCheckOpen, sheetBounds } from '../wizard/wizardSlice.ts';
import { dataCheckRequest } from './api.ts';
import DownloadResults from './DownloadResults.tsx';
import IssueFilters from './IssueFilters.tsx';
import IssuesGrid from './IssuesGrid.tsx';
import { excludeFlagged, filterIssues, flaggedRows, NO_FILTER, summarize, validFilter, type IssueFilter, type IssueRow } from './issues.ts';
import RowDialog from './RowDialog.tsx';
import { useDataCheckRun, type RunStatus } from './useDataCheckRun.ts';

/** Why "Exclude flagged rows" cannot be done (dataCheck.json's exclude.*). */
const EXCLUSION_NOTES = { 'nothing-to-exclude': 'exclude.nothing', 'no-rows-left': 'exclude.allFlagged', 'too-long': 'exclude.tooLong' } as const;

interface RunProps {
  template: TemplateDetail;
  excel: ExcelMeta;
  onRetry: () => void;
  onClose: () => void;
}

/** `rows`: the sheet's data rows; `flagged`: the rows with issues. */
function StatusLine({ status, issues, rows, flagged }: { status: RunStatus; issues: number; rows: number; flagged: number }) {
  const { t } = useTranslation('dataCheck');
  const running = status.kind === 'loading' || status.kind === 'streaming';
  let text = t('status.checking', { count: rows });
  if (status.kind === 'done' && issues === 0) text = t('status.clean', { count: rows });
  else if (status.kind === 'done' || (status.kind === 'failed' && issues > 0)) text = t('status.summary', { issues: t('status.issues', { count: issues }), rows: t('status.rows', { count: flagged }) });
  return (
    <Box>
      {/* One announcement per state, not one per batch of issues. */}
      <Typography role="status" sx={{ fontWeight: 600 }} data-testid="data-check-summary">{status.kind === 'failed' && issues === 0 ? '' : text}</Typography>
      {status.kind === 'streaming' && <Typography variant="body2" color="text.secondary">{t('status.soFar', { count: issues })}</Typography>}
      {running && <LinearProgress sx={{ mt: 1 }} aria-label={t('status.progress')} />}
    </Box>
  );
}

function CheckRun({ template, excel, onRetry, onClose }: RunProps) {
  const { t } = useTranslation(['dataCheck', 'errors']);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const sheetKey = useAppSelector((state) => state.wizard.sheetKey);
  const selection = useAppSelector((state) => state.wizard.rowSelection);
  const sheet = sheetBounds(excel)!;
  // Compared as JSON by the run: a new copy of the template with the same settings changes nothing.
  const request = dataCheckRequest(template, sheet);
  const run = useDataCheckRun(template.id, request, (issues: readonly IssueRow[]) => {
    if (sheetKey) dispatch(dataCheckCompleted({ sheetKey, flaggedRows: flaggedRows(issues), issueCount: issues.length }));
  });
  const [chosenFilter, setFilter] = useState<IssueFilter>(NO_FILTER);
  const [rowShown, setRowShown] = useState<number | null>(null);
  const summary = useMemo(() => summarize(run.issues), [run.issues]);
  const filter = validFilter(chosenFilter, summary);
  const { column, kind } = filter;
  const shown = useMemo(() => filterIssues(run.issues, { column, kind }), [run.issues, column, kind]);
  const problemText = useCallback((issue: DataIssue) => translateCode(issue.code, issue.params, t) || issue.description, [t]);
  const flagged = useMemo(() => flaggedRows(run.issues), [run.issues]);
  const done = run.status.kind === 'done';
  const exclusion = done && flagged.length > 0 ? excludeFlagged(selection, sheet, flagged) : null;
  const rowCount = Math.max(0, sheet.lastRow - sheet.firstRow + 1);

  function exclude() {
    if (exclusion?.kind !== 'rows') return;
    dispatch(rowSelectionChanged({ mode: 'specific', specificRows: exclusion.specificRows }));
    notify('success', t('exclude.done', { count: exclusion.excluded, rows: exclusion.count }));
    onClose();
  }

  const exclusionNote = exclusion && exclusion.kind !== 'rows' ? t(EXCLUSION_NOTES[exclusion.kind]) : null;

  return (
    <>
      <DialogTitle id="data-check-title">{t('title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography color="text.secondary">{t('intro', { name: excel.excelName })}</Typography>
          <StatusLine status={run.status} issues={run.issues.length} rows={rowCount} flagged={summary.rows} />
          {run.status.kind === 'failed' && (
            <Alert severity="error" role="alert" action={run.status.retry ? <Button color="inherit" size="small" onClick={onRetry}>{t('actions.retry')}</Button> : undefined}>
              {translateCode(run.status.code, run.status.params, t)}
            </Alert>
          )}
          {summary.issues > 0 && <IssueFilters filter={filter} summary={summary} onChange={setFilter} />}
          <IssuesGrid
            issues={shown}
            loading={run.status.kind === 'loading'}
            emptyText={run.issues.length === 0 ? t('grid.empty') : t('grid.noMatch')}
            problemText={problemText}
            onShowRow={setRowShown}
          />
          <DownloadResults issues={shown} ready={done} filtered={shown.length !== run.issues.length} sheetName={excel.excelName} problemText={problemText} />
          {exclusionNote && <Typography variant="body2" color="text.secondary" data-testid="data-check-exclusion-note">{exclusionNote}</Typography>}
        </Stack>
      </DialogContent>
      <DialogActions>
        {!done && run.status.kind !== 'failed' && <Button onClick={onClose}>{t('actions.stop')}</Button>}
        {run.status.kind === 'failed' && <Button onClick={onClose}>{t('actions.goOn')}</Button>}
        {done && flagged.length === 0 && <Button variant="contained" onClick={onClose}>{t('actions.close')}</Button>}
        {done && flagged.length > 0 && (
          <>
            <Button onClick={onClose}>{t('actions.goOn')}</Button>
            <Button variant="contained" onClick={exclude} disabled={exclusion?.kind !== 'rows'}>
              {t('actions.exclude', { count: exclusion?.kind === 'rows' ? exclusion.excluded : flagged.length })}
            </Button>
          </>
        )}
      </DialogActions>
      {rowShown !== null && (
        <RowDialog
          templateId={template.id}
          excel={excel}
          row={rowShown}
          issues={run.issues.filter((issue) => issue.row_number === rowShown)}
          problemText={problemText}
          onClose={() => setRowShown(null)}
        />
      )}
    </>
  );
}

/** Mounted while open (the wizard's dataCheckOpen): closing unmounts it, which aborts the stream. */
export default function DataCheckDialog() {
  const dispatch = useAppDispatch();
  const open = useAppSelector((state) => state.wizard.dataCheckOpen);
  const template = useWizardDetail();
  const excel = template?.excel && !template.excel.message ? template.excel : null;
  const [attempt, setAttempt] = useState(0);
  if (!open || !template || !excel) return null;
  const close = () => dispatch(setDataCheckOpen(false));
  return (
    <Dialog open onClose={close} fullWidth maxWidth="lg" aria-labelledby="data-check-title" data-testid="data-check-dialog">
      <CheckRun key={attempt} template={template} excel={excel} onRetry={() => setAttempt((value) => value + 1)} onClose={close} />
    </Dialog>
  );
}
