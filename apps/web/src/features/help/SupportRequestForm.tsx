/**
 * The support request (docs/support.md): subject, message, an optional file, and, only when the user
 * ticks the box, the recent errors of this tab with their request ids (shown before sending). The same
 * form serves /help (topic support) and "Suggest improvement" (topic improvement). On success it shows
 * the reference the server answered.
 */
import { useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Alert, Box, Button, Checkbox, Collapse, FormControlLabel, IconButton, Stack, TextField, Typography } from '@mui/material';
import AttachIcon from '@mui/icons-material/AttachFileOutlined';
import CloseIcon from '@mui/icons-material/CloseOutlined';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  SUPPORT_ATTACHMENT_MAX_BYTES, SUPPORT_MESSAGE_MAX, SUPPORT_SUBJECT_MAX, type SupportDiagnostics, type SupportRequest, type SupportTopic,
} from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { recentErrors } from '../../api/recentErrors.ts';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { currentLanguage } from '../../i18n/index.ts';

const MB = 1024 * 1024;
const maxMb = Math.round(SUPPORT_ATTACHMENT_MAX_BYTES / MB);

/** What the "attach recent error details" box sends: exactly what the preview shows. */
export function supportDiagnostics(): SupportDiagnostics {
  return {
    appVersion: __APP_VERSION__,
    userAgent: typeof navigator !== 'undefined' ? navigator.userAgent.slice(0, 500) : '',
    errors: recentErrors.list(),
  };
}

const subscribe = (listener: () => void) => recentErrors.subscribe(listener);
const errorCount = () => recentErrors.list().length;

interface Props {
  topic: SupportTopic;
  /** The error screen's request id, quoted at the start of the message. */
  requestId?: string;
  /** Shown next to Send (the dialog's way out). */
  onCancel?: () => void;
  autoFocus?: boolean;
}

type FieldErrors = Partial<Record<'subject' | 'message' | 'file', string>>;

export default function SupportRequestForm({ topic, requestId, onCancel, autoFocus }: Props) {
  const { t } = useTranslation('help');
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState(() => (requestId ? `${t('support.requestIdLine', { requestId })}\n\n` : ''));
  const [file, setFile] = useState<File | null>(null);
  const [withDetails, setWithDetails] = useState(false);
  const [showDetails, setShowDetails] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [sent, setSent] = useState<SupportRequest | null>(null);
  const count = useSyncExternalStore(subscribe, errorCount, errorCount);

  const send = useMutation({
    mutationFn: (form: { subject: string; message: string; file: File | null; diagnostics: SupportDiagnostics | null }) =>
      api.call('createSupportRequest', {
        fields: {
          topic,
          language: currentLanguage(),
          subject: form.subject,
          message: form.message,
          ...(form.diagnostics ? { diagnostics: JSON.stringify(form.diagnostics) } : {}),
        },
        ...(form.file ? { file: form.file } : {}),
      }),
    onSuccess: (request) => setSent(request),
    onError: (error) => {
      if (error instanceof ApiError && error.code.startsWith('support/subject')) setFieldErrors({ subject: translateError(error, t) });
      else if (error instanceof ApiError && error.code.startsWith('support/message')) setFieldErrors({ message: translateError(error, t) });
      else if (error instanceof ApiError && error.code === 'support/attachment-too-large') setFieldErrors({ file: translateError(error, t) });
    },
  });

  function check(): FieldErrors {
    const errors: FieldErrors = {};
    if (!subject.trim()) errors.subject = translateCode('support/subject-required', undefined, t);
    else if (subject.trim().length > SUPPORT_SUBJECT_MAX) errors.subject = translateCode('support/subject-too-long', { max: SUPPORT_SUBJECT_MAX }, t);
    if (!message.trim()) errors.message = translateCode('support/message-required', undefined, t);
    else if (message.trim().length > SUPPORT_MESSAGE_MAX) errors.message = translateCode('support/message-too-long', { max: SUPPORT_MESSAGE_MAX }, t);
    if (file && file.size > SUPPORT_ATTACHMENT_MAX_BYTES) errors.file = t('support.fileTooLarge', { maxMb });
    return errors;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = check();
    setFieldErrors(errors);
    if (Object.keys(errors).length) return;
    send.mutate({ subject: subject.trim(), message: message.trim(), file, diagnostics: withDetails ? supportDiagnostics() : null });
  }

  function reset() {
    setSubject('');
    setMessage('');
    setFile(null);
    setWithDetails(false);
    setShowDetails(false);
    setFieldErrors({});
    setSent(null);
    send.reset();
  }

  if (sent) {
    return (
      <Stack spacing={2}>
        <Alert severity="success" role="status">
          {t(sent.topic === 'improvement' ? 'support.sentImprovement' : 'support.sent', { reference: sent.reference })}
        </Alert>
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button onClick={reset}>{t('support.another')}</Button>
          {onCancel && <Button variant="contained" onClick={onCancel}>{t('support.close')}</Button>}
        </Box>
      </Stack>
    );
  }

  const otherError = send.error && !Object.keys(fieldErrors).length ? translateError(send.error, t) : null;
  const detailsId = `${id}-details`;
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        <Typography color="text.secondary">{t(topic === 'improvement' ? 'support.introImprovement' : 'support.intro')}</Typography>
        <TextField
          label={t('support.subject')}
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          required
          autoFocus={autoFocus}
          error={Boolean(fieldErrors.subject)}
          helperText={fieldErrors.subject ?? ' '}
          slotProps={{ htmlInput: { maxLength: SUPPORT_SUBJECT_MAX } }}
        />
        <TextField
          label={t('support.message')}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          required
          multiline
          minRows={5}
          error={Boolean(fieldErrors.message)}
          helperText={fieldErrors.message ?? t('support.count', { used: message.length, max: SUPPORT_MESSAGE_MAX })}
          slotProps={{ htmlInput: { maxLength: SUPPORT_MESSAGE_MAX } }}
        />
        <Box>
          <input
            ref={fileInput}
            id={`${id}-file`}
            type="file"
            hidden
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setFieldErrors(({ file: _file, ...rest }) => rest);
              event.target.value = '';
            }}
          />
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" startIcon={<AttachIcon />} onClick={() => fileInput.current?.click()}>{t('support.attach')}</Button>
            {file && (
              <Typography component="span" variant="body2" sx={{ display: 'inline-flex', alignItems: 'center' }}>
                {file.name}
                <IconButton size="small" aria-label={t('support.removeFile', { name: file.name })} onClick={() => setFile(null)}>
                  <CloseIcon fontSize="small" />
                </IconButton>
              </Typography>
            )}
          </Box>
          <Typography variant="caption" color={fieldErrors.file ? 'error' : 'text.secondary'} component="p" sx={{ mt: 0.5 }}>
            {fieldErrors.file ?? t('support.attachHelp', { maxMb })}
          </Typography>
        </Box>
        <Box>
          <FormControlLabel
            control={<Checkbox checked={withDetails} onChange={(event) => setWithDetails(event.target.checked)} />}
            label={t('support.details')}
          />
          <Typography variant="caption" color="text.secondary" component="p">
            {count ? t('support.detailsHelp', { count }) : t('support.detailsNone')}
          </Typography>
          <Button size="small" onClick={() => setShowDetails((shown) => !shown)} aria-expanded={showDetails} aria-controls={detailsId}>
            {showDetails ? t('support.hideDetails') : t('support.showDetails')}
          </Button>
          <Collapse in={showDetails} id={detailsId}>
            <Box
              component="pre"
              tabIndex={0}
              aria-label={t('support.showDetails')}
              sx={{ m: 0, mt: 1, p: 1.5, maxHeight: 240, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
            >
              {showDetails ? JSON.stringify(supportDiagnostics(), null, 2) : ''}
            </Box>
          </Collapse>
        </Box>
        {otherError && <Alert severity="error">{otherError}</Alert>}
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
          {onCancel && <Button onClick={onCancel}>{t('support.cancel')}</Button>}
          <Button type="submit" variant="contained" disabled={send.isPending}>{send.isPending ? t('support.sending') : t('support.send')}</Button>
        </Box>
      </Stack>
    </Box>
  );
}
