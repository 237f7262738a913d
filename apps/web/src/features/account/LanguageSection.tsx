import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@sheaf/shared';
import { queryKeys } from '../../api/queryKeys.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { currentLanguage, LANGUAGE_NAMES, setLanguage } from '../../i18n/index.ts';
import SettingsSection from './SettingsSection.tsx';

/** The interface language, kept on this device and on the account (emails use it too). */
export default function LanguageSection() {
  const { t, i18n } = useTranslation('account');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const change = async (language: Language) => {
    setBusy(true);
    try {
      await setLanguage(language);
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      // Said in the newly chosen language (this render's `t` still speaks the old one).
      notify('success', i18n.getFixedT(language, 'account')('language.success'));
    } catch {
      notify('error', t('language.failure'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SettingsSection title={t('language.title')} description={t('language.description')}>
      <TextField
        select
        label={t('language.label')}
        value={currentLanguage()}
        disabled={busy}
        onChange={(event) => void change(event.target.value as Language)}
        sx={{ minWidth: 240, maxWidth: 360 }}
        fullWidth
      >
        {LANGUAGES.map((language) => (
          <MenuItem key={language} value={language} lang={language}>{LANGUAGE_NAMES[language]}</MenuItem>
        ))}
      </TextField>
    </SettingsSection>
  );
}
