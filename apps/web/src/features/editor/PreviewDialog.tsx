/**
 * Preview (spec section 2, step 2): the engine fills a few rows with the CURRENT, unsaved
 * placeholders and the resulting PDF is shown page by page as pictures. Rows are numbered as in Excel;
 * the first three data rows by default, at most 20 at a time; "Show longest occurrence" fills each
 * placeholder with the longest value of its column, to check that it fits.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Switch, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ExcelMeta } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { translateError } from '../../i18n/errors.ts';
import { renderPdfPagesToImages } from '../../lib/pdf.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { selectEditorDoc, selectPlaceholders, setPreviewOpen, setShowLongestOccurrence } from './editorSlice.ts';
import { checkPreviewRange, defaultPreviewRange, PREVIEW_MAX_PAGES } from './previewRange.ts';

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
  const [images, setImages] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);
  const check = checkPreviewRange(start, end, excel);

  const replaceImages = (next: string[]) =>
    setImages((previous) => {
      previous.forEach((url) => URL.revokeObjectURL(url));
      return next;
    });

  const load = useCallback(async () => {
    if (!check.ok) return;
    running.current?.abort();
    const abort = new AbortController();
    running.current = abort;
    setLoading(true);
    setError(null);
    try {
      const blob = await api.blob('previewTemplate', {
        params: { id: templateId },
        body: { placeholders, startRow: check.startRow, endRow: check.endRow, showLongestOccurrence: showLongest },
        signal: abort.signal,
      });
      const urls = await renderPdfPagesToImages(new Uint8Array(await blob.arrayBuffer()), { maxPages: PREVIEW_MAX_PAGES, scale: 1.25, signal: abort.signal });
      if (abort.signal.aborted) urls.forEach((url) => URL.revokeObjectURL(url));
      else replaceImages(urls);
    } catch (caught) {
      if (!abort.signal.aborted) setError(translateError(caught, t));
    } finally {
      if (running.current === abort) {
        running.current = null;
        setLoading(false);
      }
    }
  }, [check.ok, check.startRow, check.endRow, placeholders, showLongest, templateId, t]);

  // Opening the dialog or flipping "longest occurrence" shows a fresh preview.
  useEffect(() => {
    if (open) void load();
    // The row fields refresh with the button, not on every keystroke.
  }, [open, showLongest]);

  // Leaving the editor frees the pictures.
  const shown = useRef<string[]>([]);
  shown.current = images;
  useEffect(() => () => {
    running.current?.abort();
    shown.current.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const close = () => {
    running.current?.abort();
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
          <Button variant="contained" onClick={() => void load()} disabled={!check.ok || loading}>
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
          <Box role="progressbar" aria-label={t('preview.loading')} sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, py: 6 }}>
            <CircularProgress />
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
