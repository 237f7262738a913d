import { useState } from 'react';
import Button from '@mui/material/Button';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import { useTranslation } from 'react-i18next';

interface Props {
  onImport: (file: File) => Promise<boolean>;
  size?: 'medium' | 'large';
}

/**
 * "Import template": a file picker for .sheaf.json exports. The input sits inside its label, so
 * the button is the input's label (keyboard and screen readers reach it as one control).
 */
export default function ImportTemplateButton({ onImport, size = 'medium' }: Props) {
  const { t } = useTranslation('home');
  const [busy, setBusy] = useState(false);
  return (
    <Button component="label" variant="outlined" size={size} startIcon={<FileUploadOutlined />} loading={busy} loadingPosition="start" sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
      {t('import.button')}
      <input
        type="file"
        accept=".json,application/json"
        hidden
        disabled={busy}
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          // Cleared so picking the same file again fires change again.
          input.value = '';
          if (!file) return;
          setBusy(true);
          void onImport(file).finally(() => setBusy(false));
        }}
      />
    </Button>
  );
}
