/** Warns at the top of every page when the browser lacks features Sheaf relies on. */
import { useState } from 'react';
import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';

export function missingFeatures(): string[] {
  const missing: string[] = [];
  if (typeof structuredClone !== 'function') missing.push('structuredClone');
  if (typeof Array.prototype.at !== 'function') missing.push('Array.prototype.at');
  if (typeof Object.hasOwn !== 'function') missing.push('Object.hasOwn');
  if (typeof indexedDB === 'undefined') missing.push('IndexedDB');
  if (typeof CSS === 'undefined' || typeof CSS.supports !== 'function' || !CSS.supports('selector(:has(*))')) missing.push('CSS :has');
  return missing;
}

export default function OutdatedBrowserAlert() {
  const { t } = useTranslation('common');
  const [missing] = useState(missingFeatures);
  const [dismissed, setDismissed] = useState(false);
  if (missing.length === 0 || dismissed) return null;
  return (
    <Alert severity="warning" onClose={() => setDismissed(true)} sx={{ borderRadius: 0 }}>
      {t('outdatedBrowser', { features: missing.join(', ') })}
    </Alert>
  );
}
