/**
 * The editor's layout: toolbar on top; headings and the placeholder search on the left, the pages
 * in the middle, the properties of the selection on the right; the preview and header-row dialogs.
 */
import { useMemo, useRef, useState } from 'react';
import { Alert, Box, Divider, Paper } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ExcelMeta, Placeholder, TemplateDetail } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { patchTemplateDetail, templateReceived } from '../wizard/templateDetail.ts';
import type { PDFDocumentProxy } from '../../lib/pdf.ts';
import { pageSizeOf, type Size } from './geometry.ts';
import { addPlaceholder, excelKey, select, selectEditorDoc, selectPlaceholders, selectSelection } from './editorSlice.ts';
import { createPlaceholder, freeSpot } from './placeholders.ts';
import { useCustomFonts, useLoadedFonts } from './fonts.ts';
import { useEditorShortcuts } from './useEditorShortcuts.ts';
import Toolbar from './Toolbar.tsx';
import PagesView, { type PagesViewHandle } from './PagesView.tsx';
import HeadingsList from './HeadingsList.tsx';
import PlaceholderList from './PlaceholderList.tsx';
import PropertiesPanel from './PropertiesPanel.tsx';
import PreviewDialog from './PreviewDialog.tsx';
import HeaderRowDialog from './HeaderRowDialog.tsx';

interface EditorProps {
  template: TemplateDetail;
  /** The wizard's spreadsheet (the editor may hold a newer header row of it). */
  excel: ExcelMeta | null;
  pages: Size[];
  pdf: PDFDocumentProxy | null;
  pdfError: string | null;
}

export default function Editor({ template, excel, pages, pdf, pdfError }: EditorProps) {
  const { t } = useTranslation('editor');
  const dispatch = useAppDispatch();
  const doc = useAppSelector(selectEditorDoc);
  const placeholders = useAppSelector(selectPlaceholders);
  const view = useRef<PagesViewHandle>(null);
  const [headerRowOpen, setHeaderRowOpen] = useState(false);
  const fonts = useCustomFonts();
  const customFonts = useMemo(() => fonts.data?.fonts.map((font) => font.name) ?? [], [fonts.data]);
  const usedFonts = useMemo(() => placeholders.map((item) => item.fontFamily), [placeholders]);
  const loadedFonts = useLoadedFonts(customFonts, usedFonts);
  useEditorShortcuts(template.id);

  const readable = excel && !excel.message ? excel : null;
  const headings = readable ? readable.headers : null;
  const selection = useAppSelector(selectSelection);
  const selected = useMemo(() => placeholders.filter((item) => selection.includes(item.id)), [placeholders, selection]);
  const currentPage = doc?.pageNumber ?? 1;

  const addAt = (column: string) => {
    const page = Math.min(currentPage, pages.length);
    const y = view.current?.visibleMiddleOf(page) ?? 0.5;
    const size = pageSizeOf(pages, page);
    dispatch(addPlaceholder(createPlaceholder(column, page, size, freeSpot(placeholders, page, size, 0.5, y))));
  };

  const addFromToolbar = () => {
    const used = new Set(placeholders.map((item) => item.column));
    const column = headings?.find((heading) => !used.has(heading)) ?? headings?.[0] ?? t('newName', { number: placeholders.length + 1 });
    addAt(column);
  };

  const choose = (item: Placeholder) => {
    dispatch(select([item.id]));
    view.current?.scrollToPage(item.pageNumber, Math.max(0, item.relativeY - 0.1));
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-placeholder-id="${item.id}"]`)?.focus({ preventScroll: true }));
  };

  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 290px)', minHeight: 480, overflow: 'hidden' }}>
      <Toolbar
        templateId={template.id}
        pageCount={pages.length}
        hasSpreadsheet={readable !== null}
        onAdd={addFromToolbar}
        onJumpToPage={(page) => view.current?.scrollToPage(page)}
        onFitWidth={() => view.current?.fitWidth()}
        onChangeHeaderRow={() => setHeaderRowOpen(true)}
      />
      {pdfError ? <Alert severity="error" sx={{ borderRadius: 0 }}>{pdfError}</Alert> : null}
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        <Box component="aside" aria-label={t('sidebar.label')} sx={{ width: 240, flex: 'none', borderRight: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
          <Box sx={{ flex: '1 1 50%', overflow: 'auto', minHeight: 0 }}>
            <HeadingsList headings={headings} placeholders={placeholders} onAdd={addAt} />
          </Box>
          <Divider />
          <Box sx={{ flex: '1 1 50%', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
            <PlaceholderList placeholders={placeholders} selection={selection} headings={headings} onChoose={choose} />
          </Box>
        </Box>
        <PagesView ref={view} pdf={pdf} pages={pages} headings={headings} customFonts={customFonts} loadedFonts={loadedFonts} />
        <Box sx={{ width: 300, flex: 'none', borderLeft: 1, borderColor: 'divider', overflow: 'auto' }}>
          <PropertiesPanel templateId={template.id} selected={selected} headings={headings} pages={pages} customFonts={customFonts} images={template.images} onImagesChange={(images) => patchTemplateDetail(template.id, { images })} />
        </Box>
      </Box>
      {readable ? <PreviewDialog key={excelKey(readable)} templateId={template.id} excel={readable} /> : null}
      {readable ? (
        <HeaderRowDialog
          open={headerRowOpen}
          templateId={template.id}
          current={readable.headersRowNo}
          onClose={() => setHeaderRowOpen(false)}
          onChanged={(detail) => {
            // The cached template (its sheet with the new header row, which steps 3 and 4 count) follows.
            dispatch(templateReceived(detail));
          }}
        />
      ) : null}
    </Paper>
  );
}
