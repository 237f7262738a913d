/**
 * The file name of each document, with column tags ({{Heading}}) inserted at the cursor by clicking
 * a heading. Unused (and disabled) with combined output, which makes one file.
 */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Box, Chip, Stack, TextField, Typography } from '@mui/material';
import { insertColumnTag } from './outputRules.ts';

interface FileNamePatternProps {
  value: string;
  headings: readonly string[];
  onChange: (value: string) => void;
  /** The field lost focus (or a tag was inserted): time to save. */
  onCommit: (value: string) => void;
  error: string | null;
  disabled: boolean;
  /** Added to each name: .pdf, or .docx for a Word template's DOCX output. */
  extension?: '.pdf' | '.docx';
}

export default function FileNamePattern({ value, headings, onChange, onCommit, error, disabled, extension = '.pdf' }: FileNamePatternProps) {
  const { t } = useTranslation('wizard');
  const input = useRef<HTMLInputElement>(null);

  function insert(heading: string) {
    const field = input.current;
    const start = field?.selectionStart ?? value.length;
    const end = field?.selectionEnd ?? start;
    const next = insertColumnTag(value, heading, start, end);
    onChange(next.text);
    onCommit(next.text);
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(next.cursor, next.cursor);
    });
  }

  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h2">{t('fileName.title')}</Typography>
      <TextField
        size="small"
        label={t('fileName.label')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={() => onCommit(value)}
        inputRef={input}
        disabled={disabled}
        error={error !== null}
        helperText={error ?? (disabled ? t('fileName.combinedHint') : t('fileName.hint', { extension }))}
        placeholder="{{Last}}-{{First}}"
        sx={{ maxWidth: 520 }}
      />
      {!disabled && headings.length > 0 && (
        <Box aria-label={t('fileName.insertTag')} role="group" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {headings.map((heading) => (
            <Chip key={heading} label={`{{${heading}}}`} size="small" variant="outlined" onClick={() => insert(heading)} aria-label={t('fileName.insert', { heading })} />
          ))}
        </Box>
      )}
    </Stack>
  );
}
