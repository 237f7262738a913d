/**
 * The Word template's pages as they print: the server prints the saved DOCX to PDF with LibreOffice
 * (GET /templates/:id/printed, once per version) and pdf.js draws its pages as pictures. A new
 * checksum (a save) is a new print. Printing may take seconds: progress is shown meanwhile.
 */
import { useEffect } from 'react';
import { Alert, Box, LinearProgress, Stack, Typography } from '@mui/material';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { translateError } from '../../i18n/errors.ts';
import { renderPdfPagesToImages } from '../../lib/pdf.ts';

const MAX_PAGES = 50;

/** The print's bytes, kept a while: coming back to step 2 shows the pages without asking again. */
function printedQuery(templateId: string, checksum: string) {
  return queryOptions({
    queryKey: queryKeys.templates.printed(templateId, checksum),
    queryFn: async ({ signal }) => new Uint8Array(await (await api.blob('printedTemplate', { params: { id: templateId }, signal })).arrayBuffer()),
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    retry: 1,
  });
}

/** Its pages as pictures (object URLs), drawn for each showing and freed after it. */
function pagesQuery(queryClient: QueryClient, templateId: string, checksum: string) {
  return queryOptions({
    queryKey: queryKeys.templates.printedPages(templateId, checksum),
    queryFn: async ({ signal }) => {
      const bytes = await queryClient.fetchQuery(printedQuery(templateId, checksum));
      const urls = await renderPdfPagesToImages(bytes, { maxPages: MAX_PAGES, scale: 1.25, signal });
      if (signal.aborted) {
        urls.forEach((url) => URL.revokeObjectURL(url));
        throw ApiError.cancelled();
      }
      return urls;
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

interface PrintedPagesProps {
  templateId: string;
  checksum: string;
  /** Unsaved edits: the pages show the document as last saved. */
  stale: boolean;
}

export default function PrintedPages({ templateId, checksum, stale }: PrintedPagesProps) {
  const { t } = useTranslation(['editor', 'errors']);
  const queryClient = useQueryClient();
  const printed = useQuery(pagesQuery(queryClient, templateId, checksum));
  const images = printed.data;
  useEffect(() => () => images?.forEach((url) => URL.revokeObjectURL(url)), [images]);

  return (
    <Stack spacing={1} component="section" aria-labelledby="word-pages-title">
      <Typography variant="subtitle1" component="h2" id="word-pages-title">{t('word.pagesTitle')}</Typography>
      {stale && <Alert severity="info" data-testid="word-pages-stale">{t('word.pagesStale')}</Alert>}
      {printed.isFetching && (
        <Box role="status" data-testid="word-printing">
          <LinearProgress aria-label={t('word.printing')} />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>{t('word.printing')}</Typography>
        </Box>
      )}
      {printed.error && <Alert severity="error">{`${t('word.printFailed')} ${translateError(printed.error, t)}`}</Alert>}
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'center', bgcolor: 'grey.100', p: 2, borderRadius: 1, minHeight: 200 }}>
        {images?.map((url, index) => (
          <Box key={url} component="img" src={url} data-testid="word-page" alt={t('word.pageAlt', { page: index + 1 })} sx={{ maxWidth: '100%', boxShadow: 2, bgcolor: 'common.white' }} />
        ))}
      </Box>
    </Stack>
  );
}
