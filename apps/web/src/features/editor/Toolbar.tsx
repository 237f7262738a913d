/**
 * The editor toolbar: add, undo/redo, zoom, jump to page, preview, header row, save and the save state.
 * The page field follows docs/editor.md#editing: 1..max, out of range ignored, NaN or below 1 blanks it.
 */
import { useState } from 'react';
import { Box, Button, Chip, Divider, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Undo from '@mui/icons-material/Undo';
import Redo from '@mui/icons-material/Redo';
import ZoomIn from '@mui/icons-material/ZoomIn';
import ZoomOut from '@mui/icons-material/ZoomOut';
import FitScreen from '@mui/icons-material/FitScreen';
import Visibility from '@mui/icons-material/Visibility';
import TableRows from '@mui/icons-material/TableRows';
import Save from '@mui/icons-material/Save';
import CloudDone from '@mui/icons-material/CloudDone';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { parsePageInput, stepZoom } from './geometry.ts';
import { redo, selectCanRedo, selectCanUndo, selectEditorDoc, selectIsChanged, setPreviewOpen, setZoom, undo } from './editorSlice.ts';
import { saveEditorChanges } from './save.ts';

interface ToolbarProps {
  templateId: string;
  pageCount: number;
  hasSpreadsheet: boolean;
  onAdd: () => void;
  onJumpToPage: (page: number) => void;
  onFitWidth: () => void;
  onChangeHeaderRow: () => void;
}

export default function Toolbar({ templateId, pageCount, hasSpreadsheet, onAdd, onJumpToPage, onFitWidth, onChangeHeaderRow }: ToolbarProps) {
  const { t } = useTranslation('editor');
  const dispatch = useAppDispatch();
  const doc = useAppSelector(selectEditorDoc);
  const canUndo = useAppSelector(selectCanUndo);
  const canRedo = useAppSelector(selectCanRedo);
  const changed = useAppSelector(selectIsChanged);
  const zoom = doc?.zoom ?? 1;
  const currentPage = doc?.pageNumber ?? 1;
  const [pageField, setPageField] = useState(String(currentPage));
  const [shownPage, setShownPage] = useState(currentPage);

  // The field follows the page shown whenever that page changes (scrolling, a jump), even while the
  // field has focus; what the user is typing stays until the page actually changes.
  if (shownPage !== currentPage) {
    setShownPage(currentPage);
    setPageField(String(currentPage));
  }

  const onPageChange = (raw: string) => {
    const parsed = parsePageInput(raw, pageCount);
    if (!parsed) return; // above the last page: ignored
    setPageField(parsed.field);
    if (parsed.page !== null) onJumpToPage(parsed.page);
  };

  return (
    <Box role="toolbar" aria-label={t('toolbar.label')} sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Button variant="contained" size="small" startIcon={<Add />} onClick={onAdd}>
        {t('toolbar.add')}
      </Button>
      <Divider orientation="vertical" flexItem />
      <Tooltip title={t('toolbar.undoHint')}>
        <span>
          <IconButton aria-label={t('toolbar.undo')} disabled={!canUndo} onClick={() => dispatch(undo())} size="small">
            <Undo />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('toolbar.redoHint')}>
        <span>
          <IconButton aria-label={t('toolbar.redo')} disabled={!canRedo} onClick={() => dispatch(redo())} size="small">
            <Redo />
          </IconButton>
        </span>
      </Tooltip>
      <Divider orientation="vertical" flexItem />
      <IconButton aria-label={t('toolbar.zoomOut')} onClick={() => dispatch(setZoom(stepZoom(zoom, -1)))} size="small">
        <ZoomOut />
      </IconButton>
      <Typography variant="body2" aria-live="polite" sx={{ minWidth: 44, textAlign: 'center' }} data-testid="editor-zoom">
        {Math.round(zoom * 100)}%
      </Typography>
      <IconButton aria-label={t('toolbar.zoomIn')} onClick={() => dispatch(setZoom(stepZoom(zoom, 1)))} size="small">
        <ZoomIn />
      </IconButton>
      <Tooltip title={t('toolbar.fitWidth')}>
        <IconButton aria-label={t('toolbar.fitWidth')} onClick={onFitWidth} size="small">
          <FitScreen />
        </IconButton>
      </Tooltip>
      <Divider orientation="vertical" flexItem />
      <TextField
        label={t('toolbar.page')}
        type="number"
        size="small"
        value={pageField}
        onBlur={() => setPageField(String(currentPage))}
        onChange={(event) => onPageChange(event.target.value)}
        slotProps={{ htmlInput: { min: 1, max: pageCount, 'aria-describedby': 'editor-page-count' } }}
        sx={{ width: 90 }}
      />
      <Typography id="editor-page-count" variant="body2" color="text.secondary">
        {t('toolbar.ofPages', { count: pageCount })}
      </Typography>
      <Divider orientation="vertical" flexItem />
      <Tooltip title={hasSpreadsheet ? '' : t('toolbar.needsSpreadsheet')}>
        <span>
          <Button size="small" startIcon={<Visibility />} disabled={!hasSpreadsheet} onClick={() => dispatch(setPreviewOpen(true))}>
            {t('toolbar.preview')}
          </Button>
        </span>
      </Tooltip>
      <Tooltip title={hasSpreadsheet ? '' : t('toolbar.needsSpreadsheet')}>
        <span>
          <Button size="small" startIcon={<TableRows />} disabled={!hasSpreadsheet} onClick={onChangeHeaderRow}>
            {t('toolbar.headerRow')}
          </Button>
        </span>
      </Tooltip>
      <Box sx={{ flex: 1 }} />
      <Chip
        size="small"
        icon={changed ? undefined : <CloudDone />}
        color={changed ? 'warning' : 'success'}
        variant="outlined"
        label={doc?.saving ? t('toolbar.saving') : changed ? t('toolbar.unsaved') : t('toolbar.saved')}
        role="status"
      />
      <Button size="small" variant="outlined" startIcon={<Save />} disabled={!changed || doc?.saving} onClick={() => void dispatch(saveEditorChanges(templateId))}>
        {t('toolbar.save')}
      </Button>
    </Box>
  );
}
