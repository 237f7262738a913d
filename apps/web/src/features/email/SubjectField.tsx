/** The subject with column tags inserted at the caret (or over the selection) from the headings menu. */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { InputAdornment, TextField } from '@mui/material';
import { insertColumnTag } from '../wizard/outputRules.ts';
import ColumnTagMenu from './ColumnTagMenu.tsx';

interface Props {
  value: string;
  headings: readonly string[];
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
}

export default function SubjectField({ value, headings, onChange, error, disabled }: Props) {
  const { t } = useTranslation('email');
  const input = useRef<HTMLInputElement>(null);

  function insert(heading: string) {
    const field = input.current;
    const start = field?.selectionStart ?? value.length;
    const next = insertColumnTag(value, heading, start, field?.selectionEnd ?? start);
    onChange(next.text);
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(next.cursor, next.cursor);
    });
  }

  return (
    <TextField
      size="small"
      label={t('compose.subject')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      inputRef={input}
      disabled={disabled}
      error={error !== undefined}
      helperText={error ?? t('compose.subjectHint', { example: '{{First}}' })}
      required
      fullWidth
      slotProps={{
        htmlInput: { maxLength: 998, 'data-testid': 'email-subject' },
        input: { endAdornment: <InputAdornment position="end"><ColumnTagMenu compact headings={headings} onPick={insert} disabled={disabled} target={t('compose.subject')} /></InputAdornment> },
      }}
    />
  );
}
