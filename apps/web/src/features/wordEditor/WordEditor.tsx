/**
 * Step 2 for a Word template (docs/word-templates.md#editing-in-the-browser): the pages as they print
 * on one side; on the other the document's text, where the user types, deletes, searches, and
 * inserts the spreadsheet's headings as {{Heading}} fields, with undo and redo. Save (or Ctrl/Cmd+S, or leaving the step)
 * sends the DOCX; the printed pages follow the saved version. Preview fills real rows on the server.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Grid, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import RedoIcon from '@mui/icons-material/Redo';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import UndoIcon from '@mui/icons-material/Undo';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, type ExcelMeta, type TemplateDetail } from '@sheaf/shared';
import { useAppDispatch } from '../../app/hooks.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { getTemplateBytes } from '../../api/templateCache.ts';
import { translateError } from '../../i18n/errors.ts';
import { openTemplate, setPreviewOpen } from '../editor/editorSlice.ts';
import PreviewDialog from '../editor/PreviewDialog.tsx';
import UnsavedChangesGuard from '../editor/UnsavedChangesGuard.tsx';
import DocumentText from './DocumentText.tsx';
import { insertText, listParagraphs, openDocx, searchText, type WordDocument } from './docxModel.ts';
import { applyCommand, cursorAt, selectedText, type EditCommand, type TextSelection } from './editCommands.ts';
import FieldList from './FieldList.tsx';
import PrintedPages from './PrintedPages.tsx';
import { markWordEdited, openedWordDocument, saveWordEdits, setWordDocument, useWordEdits } from './wordEdits.ts';

interface WordEditorProps {
  template: TemplateDetail;
  excel: ExcelMeta | null;
}

/** Opens the stored DOCX into the edit store, unless the open document is this very version (kept with its edits). */
function useOpenDocument(template: TemplateDetail): { ready: boolean; error: string | null } {
  const { t } = useTranslation(['editor', 'errors']);
  useWordEdits();
  const open = openedWordDocument(template.id);
  const current = open !== null && (open.checksum === template.checksum || open.dirty);
  const opening = useQuery({
    queryKey: queryKeys.templates.wordDocument(template.id, template.checksum),
    queryFn: async () => {
      const bytes = await getTemplateBytes(template.id, template.checksum);
      let document: WordDocument;
      try {
        document = openDocx(bytes);
      } catch {
        throw new UnreadableDocument();
      }
      setWordDocument(template.id, template.checksum, document);
      return true;
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: 1,
    enabled: !current,
  });
  if (current) return { ready: true, error: null };
  if (opening.error instanceof UnreadableDocument) return { ready: false, error: t('word.loadFailed') };
  if (opening.error) return { ready: false, error: `${t('word.loadFailed')} ${translateError(opening.error, t)}` };
  return { ready: false, error: null };
}

/** The DOCX came but could not be read as one (the server checked it, so this is rare). */
class UnreadableDocument extends Error {}

export default function WordEditor({ template, excel }: WordEditorProps) {
  const { t } = useTranslation(['editor', 'errors']);
  const dispatch = useAppDispatch();
  const edits = useWordEdits();
  const { ready, error } = useOpenDocument(template);
  const open = openedWordDocument(template.id);
  const [selection, setSelection] = useState<TextSelection | null>(null);
  const caret = selection?.focus ?? null;
  const [announcement, setAnnouncement] = useState('');

  // The preview dialog reads the editor's state for this template (no placeholders to edit here).
  const pages = useMemo(() => (template.pages.length > 0 ? template.pages : [{ ...DEFAULT_PAGE_SIZE }]), [template.pages]);
  useLayoutEffect(() => {
    dispatch(openTemplate({ templateId: template.id, placeholders: template.placeholders, pages }));
  }, [dispatch, template.id, template.placeholders, pages]);

  const document = open?.document ?? null;
  // `edits` changes whenever the document does: the list is read again then.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const paragraphs = useMemo(() => (document ? listParagraphs(document) : []), [document, edits]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const search = useCallback((query: string) => (document ? searchText(document, query) : []), [document, edits]);
  const dirty = open?.dirty ?? false;
  const saving = open?.saving ?? false;

  const save = useCallback(() => dispatch(saveWordEdits(template.id)), [dispatch, template.id]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);

  const insert = (heading: string) => {
    if (!document || !open || !caret) return;
    const field = `{{${heading}}}`;
    const after = open.history.apply(document, 'edit', caret, () => insertText(document, caret, field));
    if (after) setSelection(cursorAt(after));
    markWordEdited(template.id);
    setAnnouncement(t('word.inserted', { field }));
  };

  /** Applies `next` to `over` (a spelling suggestion's word, a drop's place) or else to the selection. */
  const command = (next: EditCommand, over?: TextSelection) => {
    if (!document || !open) return;
    const current = over ?? selection ?? (paragraphs[0] ? cursorAt({ paragraphId: paragraphs[0].id, offset: 0 }) : null);
    if (!current) return;
    const result = applyCommand(document, open.history, current, next);
    setSelection(result.selection);
    if (result.refused) setAnnouncement(t(`word.refused.${result.refused}`));
    else if (next.kind === 'undo' || next.kind === 'redo') setAnnouncement(result.changed ? t(next.kind === 'undo' ? 'word.undone' : 'word.redone') : '');
    if (result.changed) markWordEdited(template.id);
  };

  const preview = async () => {
    // The preview fills the saved document: unsaved fields are saved first.
    if (dirty && (await save()) === 'failed') return;
    dispatch(setPreviewOpen(true));
  };

  if (error) return <Alert severity="error">{error}</Alert>;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h5" component="h1">{t('word.title')}</Typography>
          <Typography variant="body2" color="text.secondary">{t('word.intro', { example: '{{Heading}}' })}</Typography>
        </Box>
        <Tooltip title={t('word.undo')}>
          <span><IconButton aria-label={t('word.undo')} disabled={!ready || !open?.history.canUndo} onClick={() => command({ kind: 'undo' })}><UndoIcon /></IconButton></span>
        </Tooltip>
        <Tooltip title={t('word.redo')}>
          <span><IconButton aria-label={t('word.redo')} disabled={!ready || !open?.history.canRedo} onClick={() => command({ kind: 'redo' })}><RedoIcon /></IconButton></span>
        </Tooltip>
        <Chip size="small" color={dirty ? 'warning' : 'default'} label={dirty ? t('word.unsaved') : t('word.allSaved')} data-testid="word-save-state" />
        <Tooltip title={excel ? '' : t('word.previewNeedsSheet')}>
          <span>
            <Button variant="outlined" startIcon={<VisibilityIcon />} disabled={!excel || !ready || saving} onClick={() => void preview()}>
              {t('toolbar.preview')}
            </Button>
          </span>
        </Tooltip>
        <Button
          variant="contained"
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
          disabled={!dirty || saving}
          onClick={() => void save()}
        >
          {saving ? t('word.saving') : t('word.save')}
        </Button>
      </Stack>
      <Box aria-live="polite" data-testid="word-announcement" sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{announcement}</Box>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <PrintedPages templateId={template.id} checksum={template.checksum} stale={dirty} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          {!ready ? (
            <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, py: 6 }}>
              <CircularProgress aria-label={t('word.loading')} />
              <Typography variant="body2" color="text.secondary">{t('word.loading')}</Typography>
            </Box>
          ) : (
            <Stack spacing={3}>
              <FieldList headings={excel ? excel.headers : null} canInsert={caret !== null && !saving} onInsert={insert} />
              <Stack spacing={1} component="section" aria-labelledby="word-text-title">
                <Typography variant="subtitle1" component="h2" id="word-text-title">{t('word.textTitle')}</Typography>
                <DocumentText
                  paragraphs={paragraphs}
                  selection={selection}
                  onSelection={setSelection}
                  onCommand={command}
                  selectedText={(selected) => (document ? selectedText(document, paragraphs, selected) : '')}
                  search={search}
                  labelledBy="word-text-title"
                />
              </Stack>
            </Stack>
          )}
        </Grid>
      </Grid>
      {excel && <PreviewDialog templateId={template.id} excel={excel} />}
      <UnsavedChangesGuard templateId={template.id} />
    </Stack>
  );
}
