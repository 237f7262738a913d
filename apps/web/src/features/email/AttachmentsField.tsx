/**
 * Static attachments sent with every message besides the row's document
 * (docs/email.md#static-attachments): names without special characters and 5 MB in total are checked
 * before uploading; the server's own refusals are shown the same way, under the field.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Box, Button, Chip, FormHelperText, LinearProgress, Stack, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { MAX_ATTACHMENTS_TOTAL_BYTES, type TemplateEmailSettings } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { configQuery } from '../../api/routeQuery.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { formatBytes } from '../wizard/format.ts';
import { attachmentProblem } from './emailRules.ts';
import { attachmentsSaved } from './useEmailSettings.ts';

interface Props {
  templateId: string;
  attachments: TemplateEmailSettings['staticAttachments'];
  disabled?: boolean;
}

export default function AttachmentsField({ templateId, attachments, disabled }: Props) {
  const { t, i18n } = useTranslation(['email', 'errors']);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const config = useQuery(configQuery());
  const maxBytes = config.data?.maxAttachmentsBytes ?? MAX_ATTACHMENTS_TOTAL_BYTES;
  const total = attachments.reduce((sum, file) => sum + file.size, 0);

  async function upload(files: File[]) {
    setError(null);
    const problem = attachmentProblem(files, attachments, maxBytes);
    if (problem) {
      setError(translateCode(problem.code, problem.params, t));
      return;
    }
    for (const [index, file] of files.entries()) {
      setProgress(index / files.length);
      try {
        const result = await api.call('uploadAttachment', {
          params: { id: templateId },
          file,
          onUploadProgress: (fraction) => setProgress((index + fraction) / files.length),
        });
        dispatch(attachmentsSaved(templateId, result.staticAttachments));
      } catch (failure) {
        setError(`${file.name}: ${translateError(failure, t)}`);
        break;
      }
    }
    setProgress(null);
  }

  async function remove(name: string) {
    setRemoving(name);
    setError(null);
    try {
      const result = await api.call('deleteAttachment', { params: { id: templateId, name } });
      dispatch(attachmentsSaved(templateId, result.staticAttachments));
    } catch (failure) {
      notify('error', `${t('attachments.removeFailed')} ${translateError(failure, t)}`);
    } finally {
      setRemoving(null);
    }
  }

  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {t('attachments.title')} · {t('attachments.total', { used: formatBytes(total, i18n.language), max: formatBytes(maxBytes, i18n.language) })}
        </Typography>
        <Button size="small" variant="outlined" startIcon={<AttachFileIcon />} disabled={disabled || progress !== null} onClick={() => input.current?.click()}>
          {t('attachments.add')}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label={t('attachments.add')}
          data-testid="attachment-input"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            if (files.length > 0) void upload(files);
          }}
        />
      </Stack>
      {progress !== null && <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={t('attachments.uploading')} />}
      {attachments.length > 0 && (
        <Box role="list" aria-label={t('attachments.title')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {attachments.map((file) => (
            <Chip
              role="listitem"
              key={file.name}
              icon={<AttachFileIcon />}
              label={`${file.name} (${formatBytes(file.size, i18n.language)})`}
              onDelete={disabled || removing !== null ? undefined : () => void remove(file.name)}
              title={disabled ? undefined : t('attachments.remove', { name: file.name })}
              variant="outlined"
            />
          ))}
        </Box>
      )}
      {error && <FormHelperText error role="alert">{error}</FormHelperText>}
      {!error && attachments.length === 0 && <FormHelperText>{t('attachments.hint')}</FormHelperText>}
    </Stack>
  );
}
