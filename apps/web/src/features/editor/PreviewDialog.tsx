/**
 * Preview (docs/editor.md#preview, step 2): the engine fills a few rows with the CURRENT, unsaved
 * placeholders and the resulting PDF is shown page by page as pictures. Rows are numbered as in Excel;
 * the first three data rows by default, at most 20 at a time; "Show longest occurrence" fills each
 * placeholder with the longest value of its column, to check that it fits.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Switch, TextField, Typography } from '@mui/material';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ExcelMeta, Placeholder } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { translateError } from '../../i18n/errors.ts';
import { renderPdfPagesToImages } from '../../lib/pdf.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { selectEditorDoc, selectPlaceholders, setPreviewOpen, setShowLongestOccurrence } from './editorSlice.ts';
import { checkPreviewRange, defaultPreviewRange, PREVIEW_MAX_PAGES } from './previewRange.ts';

type PreviewRows = { startRow: number; endRow: number };
const NO_IMAGES: string[] = [];

function rowsOf(check: ReturnType<typeof checkPreviewRange>): PreviewRows | null {
  return check.ok ? { startRow: check.startRow, endRow: check.endRow } : null;
}

/**
 * The preview's pages as pictures (object URLs). Never cached beyond the dialog: each opening asks
 * afresh, and pictures of a cancelled render are freed at once.
 */
function previewQuery(templateId: string, placeholders: Placeholder[], rows: PreviewRows | null, showLongest: boolean) {
  return queryOptions({
    queryKey: queryKeys.templates.preview(templateId, placeholders, rows, showLongest),
    queryFn: async ({ signal }) => {
      if (!rows) return NO_IMAGES;
      const blob = await api.blob('previewTemplate', {
        params: { id: templateId },
        body: { placeholders, startRow: rows.startRow, endRow: rows.endRow, showLongestOccurrence: showLongest },
        signal,
      });
      const urls = await renderPdfPagesToImages(new Uint8Array(await blob.arrayBuffer()), { maxPages: PREVIEW_MAX_PAGES, scale: 1.25, signal });
      if (signal.aborted) {
        urls.forEach((url) => URL.revokeObjectURL(url));
        throw ApiError.cancelled();
      }
      return urls;
    },
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

interface PreviewDialogProps {
  templateId: string;
  excel: ExcelMeta;
}

export default function PreviewDialog({ templateId, excel }: PreviewDialogProps) {
  const { t } = useTranslation(['editor', 'errors']);
  const dispatch = useAppDispatch();
  const doc = useAppSelector(selectEditorDoc);
  const placeholders = useAppSelector(selectPlaceholders);
  const open = doc?.previewOpen ?? false;
  const showLongest = doc?.showLongestOccurrence ?? false;
  const initial = defaultPreviewRange(excel);
  const [start, setStart] = useState(String(initial.startRow));
  const [end, setEnd] = useState(String(initial.endRow));
  const check = checkPreviewRange(start, end, excel);
  const queryClient = useQueryClient();
  // The rows the preview shows: those typed when the dialog opened or Refresh was clicked (not every keystroke).
  const [rows, setRows] = useState<PreviewRows | null>(() => rowsOf(check));
  const [openSeen, setOpenSeen] = useState(open);
  if (openSeen !== open) {
    setOpenSeen(open);
    if (open && check.ok) setRows(rowsOf(check));
  }

  // Opening the dialog or flipping "longest occurrence" shows a fresh preview (the cache keeps none).
  const preview = useQuery({ ...previewQuery(templateId, placeholders, rows, showLongest), enabled: open && rows !== null });
  const images = preview.data ?? NO_IMAGES;
  const loading = preview.isFetching;
  const error = preview.error ? translateError(preview.error, t) : null;

  // Pictures replaced by newer ones, or the editor left: their memory is freed.
  useEffect(() => () => images.forEach((url) => URL.revokeObjectURL(url)), [images]);

  const refresh = () => {
    const next = rowsOf(check);
    if (!next) return;
    if (rows && next.startRow === rows.startRow && next.endRow === rows.endRow) void preview.refetch();
    else setRows(next);
  };

  const close = () => {
    void queryClient.cancelQueries({ queryKey: queryKeys.templates.preview(templateId) });
    dispatch(setPreviewOpen(false));
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" aria-labelledby="editor-preview-title">
      <DialogTitle id="editor-preview-title">{t('preview.title')}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mb: 2 }}>
          <TextField
            type="number"
            size="small"
            label={t('preview.startRow')}
            value={start}
            onChange={(event) => setStart(event.target.value)}
            error={check.field === 'start'}
            slotProps={{ htmlInput: { min: excel.firstRow, max: excel.lastRow } }}
            sx={{ width: 130 }}
          />
          <TextField
            type="number"
            size="small"
            label={t('preview.endRow')}
            value={end}
            onChange={(event) => setEnd(event.target.value)}
            error={check.field === 'end'}
            slotProps={{ htmlInput: { min: excel.firstRow, max: excel.lastRow } }}
            sx={{ width: 130 }}
          />
          <Button variant="contained" onClick={refresh} disabled={!check.ok || loading}>
            {t('preview.refresh')}
          </Button>
          <FormControlLabel
            control={<Switch checked={showLongest} onChange={(event) => dispatch(setShowLongestOccurrence(event.target.checked))} />}
            label={t('preview.showLongest')}
          />
        </Box>
        {check.ok ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('preview.rowsHelp', { first: excel.firstRow, last: excel.lastRow })}
          </Typography>
        ) : (
          <Alert severity="warning" sx={{ mb: 1 }}>{t(`preview.errors.${check.reason}`, { first: excel.firstRow, last: excel.lastRow, max: check.max })}</Alert>
        )}
        {error ? <Alert severity="error" sx={{ mb: 1 }}>{error}</Alert> : null}
        {loading ? (
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, py: 6 }}>
            <CircularProgress aria-label={t('preview.loading')} />
            <Typography variant="body2" color="text.secondary">{t('preview.loading')}</Typography>
          </Box>
        ) : (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center', bgcolor: 'grey.100', p: images.length ? 2 : 0 }}>
            {images.map((url, index) => (
              <Box key={url} component="img" src={url} alt={t('preview.pageAlt', { page: index + 1 })} sx={{ maxWidth: '100%', boxShadow: 2, bgcolor: 'common.white' }} />
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('preview.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
