import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useTranslation } from 'react-i18next';
import type { Merge } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { translateCode } from '../../i18n/errors.ts';
import { followDownloadLink } from './download.ts';
import { formatFileSize, mergeProgress, mergeSavings } from './historyFormat.ts';
import { isMergeRunning } from './templateList.ts';
import type { TemplateActions } from './useTemplateActions.ts';

const STATUS_COLOR = { queued: 'default', generating: 'info', completed: 'success', cancelled: 'warning', error: 'error' } as const;

interface Props {
  merge: Merge;
  placeholderCount: number;
  actions: TemplateActions;
}

/** One history entry: when, how it went, what it made, what it saved, and its file. */
export default function MergeHistoryItem({ merge, placeholderCount, actions }: Props) {
  const { t, i18n } = useTranslation(['home', 'errors']);
  const [busy, setBusy] = useState(false);
  const running = isMergeRunning(merge);
  const savings = mergeSavings(merge, placeholderCount);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(merge.createdAt));
  const href = merge.downloadUrl && !merge.filesDeleted ? api.href(merge.downloadUrl) : null;

  const act = async (action: (merge: Merge) => Promise<boolean>) => {
    setBusy(true);
    try {
      await action(merge);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="li" sx={{ py: 1.5, borderTop: 1, borderColor: 'divider', listStyle: 'none' }} aria-label={t('history.entry', { date })}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>{date}</Typography>
        <Chip size="small" color={STATUS_COLOR[merge.status]} label={t(`home:history.status.${merge.status}`)} />
        {merge.madeViaApi && <Chip size="small" variant="outlined" label={t('home:history.viaApi')} />}
      </Stack>

      {running && (
        <Box sx={{ mt: 1 }}>
          <LinearProgress
            variant={merge.total > 0 ? 'determinate' : 'indeterminate'}
            value={mergeProgress(merge)}
            aria-label={t('home:history.progressLabel')}
          />
          <Typography variant="caption" color="text.secondary">
            {t('home:history.progress', { done: merge.done, total: merge.total })}
          </Typography>
        </Box>
      )}

      {merge.status === 'error' && merge.error && (
        <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
          {translateCode(merge.error.code, merge.error.params ?? {}, t)}
        </Typography>
      )}

      {!running && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('home:history.documents', { count: merge.done })}
          {merge.fileName && ` · ${merge.fileName}`}
          {merge.fileSize !== null && !merge.filesDeleted && ` · ${formatFileSize(merge.fileSize, i18n.language)}`}
          {merge.filesDeleted && ` · ${t('home:history.filesDeleted')}`}
          {merge.issues.length > 0 && ` · ${t('home:history.skipped', { count: merge.issues.length })}`}
        </Typography>
      )}

      {savings && (
        <Typography variant="body2" color="success.main" sx={{ mt: 0.5 }}>
          {t(savings.errorsPrevented > 0 ? 'home:history.savings' : 'home:history.savingsNoErrors', {
            hours: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(savings.hours),
            dollars: new Intl.NumberFormat(i18n.language).format(savings.dollars),
            errors: savings.errorsPrevented,
          })}
        </Typography>
      )}

      {!running && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          {href && merge.fileName && (
            // A link (it is one) that looks like the buttons beside it.
            <Button
              component="a"
              size="small"
              href={href}
              download={merge.fileName}
              startIcon={<FileDownloadOutlined />}
              onClick={(event: React.MouseEvent) => {
                // Check the time-limited link first, so an expired one shows a message instead of an error page.
                event.preventDefault();
                void followDownloadLink(href, merge.fileName ?? '').then((ok) => ok || actions.downloadFailed());
              }}
            >
              {t('home:history.download')}
            </Button>
          )}
          {merge.fileName && !merge.filesDeleted && (
            <Button size="small" disabled={busy} onClick={() => void act(actions.deleteFiles)}>
              {t('home:history.deleteFiles')}
            </Button>
          )}
          <Button size="small" color="error" disabled={busy} onClick={() => void act(actions.removeHistoryEntry)}>
            {t('home:history.remove')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
