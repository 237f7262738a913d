/**
 * The column a placeholder reads: pick a heading or type any name (a column the spreadsheet lacks
 * is allowed but marked). The field keeps what is typed; the trimmed name reaches the placeholders.
 */
import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';

interface ColumnFieldProps {
  headings: string[];
  value: string;
  missing: boolean;
  onCommit: (column: string) => void;
}

const clean = (text: string): string => text.trim().slice(0, 255);

export default function ColumnField({ headings, value, missing, onCommit }: ColumnFieldProps) {
  const { t } = useTranslation('editor');
  const [draft, setDraft] = useState(value);
  const [focused, setFocused] = useState(false);
  return (
    <Autocomplete
      freeSolo
      options={headings}
      value={value}
      // Outside the field's focus it shows the placeholder's column as it is now (undo, another placeholder).
      inputValue={focused ? draft : value}
      onInputChange={(_, text, reason) => {
        if (reason === 'reset' && !focused) return;
        setDraft(text);
        if (clean(text)) onCommit(clean(text));
      }}
      onChange={(_, chosen) => typeof chosen === 'string' && clean(chosen) && onCommit(clean(chosen))}
      onFocus={() => {
        setDraft(value);
        setFocused(true);
      }}
      onBlur={() => {
        setFocused(false);
        setDraft(value);
      }}
      renderInput={(params) => (
        <TextField {...params} size="small" label={t('properties.column')} error={missing} helperText={missing ? t('box.missingColumn', { column: value }) : undefined} />
      )}
    />
  );
}
