/**
 * A file dropzone with the documented states (docs/web-app.md#dropzones: initial, drop, uploading,
 * verifying, success) and its errors (docs/spreadsheets.md#limits, docs/library.md#uploading-a-template:
 * too large with the max MB, empty, wrong type, corrupt, offline...). The file is checked here first,
 * then handed to `upload`, which reports progress.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { ACCEPTED_EXTENSIONS, toMegabytes, uploadProblem, type UploadKind } from './uploadChecks.ts';

export type DropzoneState = 'initial' | 'drop' | 'uploading' | 'verifying' | 'success';

interface WizardDropzoneProps {
  kind: UploadKind;
  /** The accessible name of the file input and the title of the zone. */
  label: string;
  maxBytes: number;
  /** Sends the file; resolves when the server accepted it, throws its error otherwise. */
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<void>;
  compact?: boolean;
  disabled?: boolean;
}

export default function WizardDropzone({ kind, label, maxBytes, upload, compact = false, disabled = false }: WizardDropzoneProps) {
  const { t } = useTranslation(['wizard', 'errors']);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<DropzoneState>('initial');
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const busy = state === 'uploading' || state === 'verifying';
  const accept = ACCEPTED_EXTENSIONS[kind].join(',');

  async function send(file: File) {
    setError(null);
    const problem = uploadProblem(file, kind, maxBytes);
    if (problem) {
      setState('initial');
      setError(translateCode(problem.code, problem.params, t));
      return;
    }
    setProgress(0);
    setState('uploading');
    try {
      await upload(file, (fraction) => {
        setProgress(Math.round(fraction * 100));
        // Sent: the server now reads and checks the file.
        if (fraction >= 1) setState('verifying');
      });
      setState('success');
    } catch (failure) {
      setState('initial');
      setError(translateError(failure, t));
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    if (busy || disabled) return;
    setState('initial');
    const file = event.dataTransfer.files[0];
    if (file) void send(file);
  }

  const borderColor = error ? 'error.main' : state === 'drop' ? 'primary.main' : state === 'success' ? 'success.main' : 'divider';
  return (
    <Box>
      <Box
        data-testid={`dropzone-${kind}`}
        data-state={state}
        onDragOver={(event) => {
          event.preventDefault();
          if (!busy && !disabled && state !== 'drop') setState('drop');
        }}
        onDragLeave={() => state === 'drop' && setState('initial')}
        onDrop={onDrop}
        sx={{
          border: 2, borderStyle: 'dashed', borderColor, borderRadius: 2, p: compact ? 2 : 5, textAlign: 'center',
          bgcolor: state === 'drop' ? 'action.hover' : 'background.paper', transition: 'background-color 200ms, border-color 200ms',
        }}
      >
        {state === 'success'
          ? <CheckCircleOutlineIcon color="success" fontSize={compact ? 'medium' : 'large'} />
          : <CloudUploadOutlinedIcon color={state === 'drop' ? 'primary' : 'action'} fontSize={compact ? 'medium' : 'large'} />}
        <Typography variant={compact ? 'body1' : 'h6'} component="p" sx={{ mt: 1 }}>
          {state === 'drop' ? t('dropzone.release') : label}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('dropzone.hint', { types: ACCEPTED_EXTENSIONS[kind].join(', '), maxMb: toMegabytes(maxBytes) })}
        </Typography>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={accept}
          aria-label={label}
          hidden
          disabled={busy || disabled}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void send(file);
          }}
        />
        <Button variant={compact ? 'outlined' : 'contained'} disabled={busy || disabled} onClick={() => input.current?.click()}>
          {t('dropzone.choose')}
        </Button>
        {state === 'uploading' && (
          <Box sx={{ mt: 2 }}>
            <LinearProgress variant="determinate" value={progress} aria-label={t('dropzone.uploading')} />
            <Typography variant="body2" sx={{ mt: 1 }}>{t('dropzone.uploadingPercent', { percent: progress })}</Typography>
          </Box>
        )}
        {state === 'verifying' && (
          <Box sx={{ mt: 2 }}>
            <LinearProgress aria-label={t('dropzone.verifying')} />
            <Typography variant="body2" sx={{ mt: 1 }}>{t('dropzone.verifying')}</Typography>
          </Box>
        )}
        {state === 'success' && <Typography variant="body2" color="success.main" sx={{ mt: 1 }}>{t('dropzone.success')}</Typography>}
      </Box>
      {error && <Alert severity="error" sx={{ mt: 1 }} role="alert">{error}</Alert>}
    </Box>
  );
}
