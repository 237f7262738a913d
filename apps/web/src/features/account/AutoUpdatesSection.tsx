import { useState } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { configQuery } from '../../api/routeQuery.ts';
import { useNotify } from '../../app/snackbar.tsx';
import SettingsSection from './SettingsSection.tsx';

export const AUTO_UPDATES_KEY = 'sheaf.autoUpdates';

function readSetting(): boolean {
  try {
    return localStorage.getItem(AUTO_UPDATES_KEY) !== 'false';
  } catch {
    return true;
  }
}

/** "Automatic updates" exists in the desktop edition only; the web edition is always current. */
export default function AutoUpdatesSection() {
  const { t } = useTranslation('account');
  const notify = useNotify();
  const config = useQuery(configQuery());
  const [enabled, setEnabled] = useState(readSetting);
  if (config.data?.edition !== 'desktop') return null;

  const toggle = (next: boolean) => {
    try {
      localStorage.setItem(AUTO_UPDATES_KEY, String(next));
      setEnabled(next);
      notify('success', next ? t('updates.enabled') : t('updates.disabled'));
    } catch {
      notify('error', t('updates.failure'));
    }
  };

  return (
    <SettingsSection title={t('updates.title')} description={t('updates.description')}>
      <FormControlLabel control={<Switch checked={enabled} onChange={(_, next) => toggle(next)} />} label={t('updates.label')} />
    </SettingsSection>
  );
}
