/**
 * Step 2 of the wizard: the placeholder editor for one template. Opens the template in the editor
 * state (keeping unsaved edits when the user comes back to the same template), fetches the PDF
 * through the local cache and hands everything to the editor layout.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, type ExcelMeta, type TemplateDetail } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { getTemplateBytes } from '../../api/templateCache.ts';
import { translateError } from '../../i18n/errors.ts';
import { loadPdf, type PDFDocumentProxy } from '../../lib/pdf.ts';
import { openTemplate, selectEditorDoc } from './editorSlice.ts';
import Editor from './Editor.tsx';
import UnsavedChangesGuard from './UnsavedChangesGuard.tsx';

interface PlaceholderEditorProps {
  template: TemplateDetail;
  excel: ExcelMeta | null;
}

export default function PlaceholderEditor({ template, excel }: PlaceholderEditorProps) {
  const { t } = useTranslation(['editor', 'errors']);
  const dispatch = useAppDispatch();
  const doc = useAppSelector(selectEditorDoc);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  // The bytes pdf.js could not open; other (newer) bytes are tried afresh.
  const [failedBytes, setFailedBytes] = useState<Uint8Array | null>(null);

  // Page sizes as a person sees them; the default of docs/editor.md#coordinates where the server gave none.
  const pages = useMemo(
    () => (template.pages.length > 0 ? template.pages : Array.from({ length: Math.max(1, template.numPages) }, () => ({ ...DEFAULT_PAGE_SIZE }))),
    [template.pages, template.numPages],
  );

  // Only a different template (or a replaced file with other pages) reopens; the rest stays in the
  // store (a saved template's new placeholders do not reopen it over what is being edited).
  const opened = useRef<{ templateId: string; pages: typeof pages } | null>(null);
  useLayoutEffect(() => {
    if (opened.current?.templateId === template.id && opened.current.pages === pages) return;
    opened.current = { templateId: template.id, pages };
    dispatch(openTemplate({ templateId: template.id, placeholders: template.placeholders, pages }));
  }, [dispatch, template.id, template.placeholders, pages]);

  const bytes = useQuery({
    queryKey: queryKeys.templates.bytes(template.id, template.checksum),
    queryFn: () => getTemplateBytes(template.id, template.checksum),
    staleTime: Infinity,
    gcTime: 60_000,
    retry: 1,
  });

  useEffect(() => {
    const data = bytes.data;
    if (!data) return;
    let current: PDFDocumentProxy | null = null;
    let active = true;
    loadPdf(data).then(
      (loaded) => {
        current = loaded;
        if (active) setPdf(loaded);
        else void loaded.destroy();
      },
      () => active && setFailedBytes(data),
    );
    return () => {
      active = false;
      setPdf(null);
      if (current) void current.destroy();
    };
  }, [bytes.data]);

  if (doc?.templateId !== template.id) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  const pdfFailed = failedBytes !== null && failedBytes === bytes.data;
  const error = pdfFailed ? t('loadError') : (bytes.error ? `${t('loadError')} ${translateError(bytes.error, t)}` : null);
  return (
    <>
      <Editor template={template} excel={excel} pages={pages} pdf={pdf} pdfError={error} />
      {/* Leaving with unsaved placeholders (a link, Go home, Back, closing the tab) asks first. */}
      <UnsavedChangesGuard templateId={template.id} />
    </>
  );
}
