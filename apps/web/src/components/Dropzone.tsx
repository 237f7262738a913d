/**
 * File drop zone with the documented states (docs/web-app.md#dropzones): initial, drop (a file is
 * dragged over), uploading (with progress), verifying (the server checks the file), success. Files that
 * are empty, too large, of the wrong type or chosen while offline are refused here with a message;
 * server errors come in through `error`.
 */
import { useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Alert, Box, LinearProgress, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutlined';
import UploadIcon from '@mui/icons-material/CloudUploadOutlined';
import { useTranslation } from 'react-i18next';

export type DropzoneState = 'initial' | 'uploading' | 'verifying' | 'success';

export interface DropzoneProps {
  /** Accepted extensions as for <input accept>: ".pdf" or ".xlsx,.xls,.csv". */
  accept: string;
  maxBytes: number;
  state: DropzoneState;
  onFile: (file: File) => void;
  /** Upload progress 0..1 while uploading. */
  progress?: number;
  /** A message to show below the zone (for example the server's refusal, translated). */
  error?: string | null;
  disabled?: boolean;
  /** Main line of the zone; defaults to "Drag and drop a file here or click to choose one". */
  title?: string;
  /** Accessible name of the file input (tests and screen readers find the zone by it). */
  inputLabel?: string;
}

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '');

export default function Dropzone({ accept, maxBytes, state, onFile, progress, error, disabled, title, inputLabel }: DropzoneProps) {
  const { t } = useTranslation('common');
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [rejection, setRejection] = useState<string | null>(null);
  const busy = state === 'uploading' || state === 'verifying';
  const inactive = disabled || busy;
  const accepted = accept.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);

  const take = (file: File | undefined) => {
    if (!file || inactive) return;
    const maxMb = Math.round((maxBytes / 1024 / 1024) * 10) / 10;
    if (accepted.length > 0 && !accepted.includes(extensionOf(file.name))) setRejection(t('dropzone.wrongType', { types: accepted.join(', ') }));
    else if (file.size === 0) setRejection(t('dropzone.tooSmall'));
    else if (file.size > maxBytes) setRejection(t('dropzone.tooLarge', { maxMb }));
    else if (typeof navigator !== 'undefined' && navigator.onLine === false) setRejection(t('errors:offline'));
    else {
      setRejection(null);
      onFile(file);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files[0]);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.key === 'Enter' || event.key === ' ') && !inactive) {
      event.preventDefault();
      input.current?.click();
    }
  };

  const message = rejection ?? error ?? null;
  const line =
    state === 'uploading' ? t('dropzone.uploading', { percent: Math.round((progress ?? 0) * 100) })
      : state === 'verifying' ? t('dropzone.verifying')
        : state === 'success' ? t('dropzone.success')
          : dragging ? t('dropzone.drop')
            : (title ?? t('dropzone.initial'));

  return (
    <Box>
      <Box
        role="button"
        tabIndex={inactive ? -1 : 0}
        aria-disabled={inactive}
        aria-describedby={message ? `${inputId}-error` : undefined}
        data-state={dragging ? 'drop' : state}
        onClick={() => !inactive && input.current?.click()}
        onKeyDown={onKeyDown}
        onDragOver={(event) => {
          event.preventDefault();
          if (!inactive) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: message ? 'error.main' : dragging ? 'primary.main' : state === 'success' ? 'success.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'background.paper',
          borderRadius: 2,
          p: { xs: 3, sm: 5 },
          textAlign: 'center',
          cursor: inactive ? 'default' : 'pointer',
          transition: 'border-color 200ms, background-color 200ms',
          outline: 'none',
          '&:focus-visible': { borderColor: 'primary.main', boxShadow: 3 },
        }}
      >
        {state === 'success' ? <CheckCircleIcon color="success" sx={{ fontSize: 48 }} /> : <UploadIcon color={dragging ? 'primary' : 'action'} sx={{ fontSize: 48 }} />}
        <Typography variant="subtitle1" sx={{ mt: 1 }} aria-live="polite">{line}</Typography>
        {state === 'initial' && !dragging && (
          <Typography variant="body2" color="text.secondary">
            {t('dropzone.hint', { types: accepted.join(', '), maxMb: Math.round(maxBytes / 1024 / 1024) })}
          </Typography>
        )}
        {busy && (
          <LinearProgress
            sx={{ mt: 2 }}
            variant={state === 'uploading' && progress !== undefined ? 'determinate' : 'indeterminate'}
            value={Math.round((progress ?? 0) * 100)}
          />
        )}
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={accept}
          hidden
          disabled={inactive}
          aria-label={inputLabel ?? t('dropzone.inputLabel')}
          onChange={(event) => {
            take(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </Box>
      {message && (
        <Alert id={`${inputId}-error`} severity="error" role="alert" sx={{ mt: 1.5 }}>
          {message}
        </Alert>
      )}
    </Box>
  );
}
