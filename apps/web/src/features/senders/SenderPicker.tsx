/**
 * The sender picker of step 4 (docs/email.md#senders) with its Add button; both are disabled while
 * email sending is off. Picking a domain or smtp sender that is not verified asks (confirm dialog)
 * whether to verify it now and opens the add-sender dialog at its verify step. A spoof sender that
 * was never verified cannot be picked: its code cannot be entered again.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormControl, FormHelperText, InputLabel, ListItemText, MenuItem, Select, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import type { Sender } from '@sheaf/shared';
import ConfirmDialog from '../../components/ConfirmDialog.tsx';
import AddSenderDialog from './AddSenderDialog.tsx';
import { canReopen, senderLabel } from './senderRules.ts';
import { useSenders } from './useSenders.ts';

interface Props {
  value: string | null;
  onChange: (senderId: string) => void;
  disabled: boolean;
  /** A translated problem to show under the picker (formErrors.fromEmail). */
  error?: string;
}

export default function SenderPicker({ value, onChange, disabled, error }: Props) {
  const { t } = useTranslation('senders');
  const senders = useSenders();
  const [question, setQuestion] = useState<Sender | null>(null);
  const [dialog, setDialog] = useState<{ open: boolean; reopen: Sender | null }>({ open: false, reopen: null });
  const list = senders.data ?? [];
  const selected = list.find((sender) => sender.id === value);
  const labelId = 'email-sender-label';

  function pick(id: string) {
    const sender = list.find((item) => item.id === id);
    if (!sender) return;
    onChange(sender.id);
    if (!sender.isVerified && canReopen(sender)) setQuestion(sender);
  }

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <FormControl fullWidth size="small" disabled={disabled} error={error !== undefined}>
        <InputLabel id={labelId}>{t('picker.label')}</InputLabel>
        <Select
          labelId={labelId}
          label={t('picker.label')}
          value={selected ? selected.id : ''}
          onChange={(event) => pick(event.target.value)}
          renderValue={() => (selected ? senderLabel(selected) : '')}
          data-testid="sender-picker"
        >
          {list.length === 0 && <MenuItem disabled value="">{senders.isPending ? t('picker.loading') : t('picker.none')}</MenuItem>}
          {list.map((sender) => {
            const neverAgain = !sender.isVerified && !canReopen(sender);
            return (
              <MenuItem key={sender.id} value={sender.id} disabled={neverAgain}>
                <ListItemText
                  primary={senderLabel(sender)}
                  secondary={sender.isVerified ? t(`method.${sender.method}`) : neverAgain ? t('picker.spoofUnverified') : t('picker.unverified')}
                />
              </MenuItem>
            );
          })}
        </Select>
        <FormHelperText>{error ?? (selected && !selected.isVerified ? t('picker.notVerifiedHint') : ' ')}</FormHelperText>
      </FormControl>
      <Button variant="outlined" startIcon={<AddIcon />} disabled={disabled} onClick={() => setDialog({ open: true, reopen: null })} sx={{ flexShrink: 0, height: 40 }}>
        {t('picker.add')}
      </Button>
      <ConfirmDialog
        open={question !== null}
        title={t('picker.confirmTitle')}
        message={question ? t('picker.confirmQuestion', { sender: senderLabel(question) }) : ''}
        cancelLabel={t('picker.confirmCancel')}
        confirmLabel={t('picker.confirmVerify')}
        onCancel={() => setQuestion(null)}
        onConfirm={() => {
          setDialog({ open: true, reopen: question });
          setQuestion(null);
        }}
      />
      <AddSenderDialog
        open={dialog.open}
        reopen={dialog.reopen}
        onClose={() => setDialog((old) => ({ ...old, open: false }))}
        onSaved={(sender) => onChange(sender.id)}
      />
    </Stack>
  );
}
