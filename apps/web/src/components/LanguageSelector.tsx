/** Picks the UI language; remembered on this device and, when signed in, on the account. */
import { useId } from 'react';
import { FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@sheaf/shared';
import { currentLanguage, isLanguage, LANGUAGE_NAMES, setLanguage } from '../i18n/index.ts';

export default function LanguageSelector({ size = 'small', fullWidth = false }: { size?: 'small' | 'medium'; fullWidth?: boolean }) {
  const { t, i18n } = useTranslation('common');
  const labelId = useId();
  const value = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage();
  return (
    <FormControl size={size} fullWidth={fullWidth} sx={{ minWidth: 160 }}>
      <InputLabel id={labelId}>{t('language')}</InputLabel>
      <Select
        labelId={labelId}
        label={t('language')}
        value={value}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void setLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((language) => (
          <MenuItem key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
