/** The columns holding the To, Cc and Bcc addresses (a cell may hold several, separated by , ; or spaces). */
import { useTranslation } from 'react-i18next';
import { FormControl, FormHelperText, InputLabel, MenuItem, Select, Stack } from '@mui/material';
import type { TemplateEmailSettings } from '@sheaf/shared';

type ColumnKey = 'recipientsColumn' | 'ccColumn' | 'bccColumn';

interface Props {
  settings: Pick<TemplateEmailSettings, ColumnKey>;
  headings: readonly string[];
  onChange: (patch: Partial<Pick<TemplateEmailSettings, ColumnKey>>) => void;
  error?: string;
  disabled?: boolean;
}

const NONE = '\u0000none';

export default function RecipientColumns({ settings, headings, onChange, error, disabled }: Props) {
  const { t } = useTranslation('email');
  const select = (key: ColumnKey, required: boolean) => {
    const id = `email-${key}`;
    const value = settings[key];
    // A saved column that is no longer a heading stays visible so the user sees what to fix.
    const options = value && !headings.includes(value) ? [...headings, value] : headings;
    return (
      <FormControl key={key} size="small" fullWidth disabled={disabled} error={key === 'recipientsColumn' && error !== undefined} required={required}>
        <InputLabel id={`${id}-label`}>{t(`compose.${key}`)}</InputLabel>
        <Select
          labelId={`${id}-label`}
          label={t(`compose.${key}`)}
          value={value ?? (required ? '' : NONE)}
          onChange={(event) => onChange({ [key]: event.target.value === NONE ? null : event.target.value })}
          data-testid={id}
        >
          {!required && <MenuItem value={NONE}><em>{t('compose.noColumn')}</em></MenuItem>}
          {options.map((heading) => <MenuItem key={heading} value={heading}>{heading}</MenuItem>)}
        </Select>
        {key === 'recipientsColumn' && <FormHelperText>{error ?? t('compose.recipientsHint')}</FormHelperText>}
      </FormControl>
    );
  };
  return (
    <Stack spacing={2}>
      {select('recipientsColumn', true)}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {select('ccColumn', false)}
        {select('bccColumn', false)}
      </Stack>
    </Stack>
  );
}
