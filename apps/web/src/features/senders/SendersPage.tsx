/**
 * /senders, a tab of the account area (docs/email.md#senders): the user's senders with their method,
 * state and name, which notifications each gets, verification reopened for domain and smtp senders,
 * deletion after a confirmation, and the add-sender dialog.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Alert, Button, Chip, IconButton, MenuItem, Paper, Select, Skeleton, Stack, Table, TableBody, TableCell, TableContainer, TableHead,
  TableRow, Tooltip, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import VerifiedOutlinedIcon from '@mui/icons-material/VerifiedOutlined';
import ForwardToInboxOutlinedIcon from '@mui/icons-material/ForwardToInboxOutlined';
import { SENDER_NOTIFICATIONS, type Sender } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { useNotify } from '../../app/snackbar.tsx';
import ConfirmDialog from '../../components/ConfirmDialog.tsx';
import { translateError } from '../../i18n/errors.ts';
import AccountLayout from '../account/AccountLayout.tsx';
import AddSenderDialog from './AddSenderDialog.tsx';
import { canReopen, senderDisplay, senderLabel } from './senderRules.ts';
import { useSenders, useSetSenders } from './useSenders.ts';

export function SenderStatusChip({ sender }: { sender: Pick<Sender, 'isVerified'> }) {
  const { t } = useTranslation('senders');
  return sender.isVerified
    ? <Chip size="small" color="success" icon={<VerifiedOutlinedIcon />} label={t('status.verified')} />
    : <Chip size="small" color="warning" variant="outlined" label={t('status.pending')} />;
}

function SenderRow({ sender, onReopen, onDelete }: { sender: Sender; onReopen: (sender: Sender) => void; onDelete: (sender: Sender) => void }) {
  const { t } = useTranslation(['senders', 'errors']);
  const notify = useNotify();
  const setSenders = useSetSenders();
  const [saving, setSaving] = useState(false);
  const { primary, secondary } = senderDisplay(sender);

  async function changeNotifications(notifications: Sender['notifications']) {
    setSaving(true);
    try {
      setSenders.one(await api.call('updateSender', { params: { senderId: sender.id }, body: { notifications } }));
      notify('success', t('page.notificationsSaved'));
    } catch (error) {
      notify('error', `${t('page.notificationsFailed')} ${translateError(error, t)}`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <TableRow data-testid="sender-row">
      <TableCell>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{primary}</Typography>
        {secondary && <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{secondary}</Typography>}
      </TableCell>
      <TableCell>{t(`method.${sender.method}`)}</TableCell>
      <TableCell>
        <SenderStatusChip sender={sender} />
        {!sender.isVerified && sender.method === 'spoof' && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5, maxWidth: 220 }}>{t('page.spoofNoReopen')}</Typography>
        )}
        {!sender.isVerified && sender.method === 'smtp' && sender.lastError && (
          <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.5, maxWidth: 220, wordBreak: 'break-word' }}>{sender.lastError}</Typography>
        )}
      </TableCell>
      <TableCell>
        <Select
          size="small"
          value={sender.notifications}
          disabled={saving}
          onChange={(event) => void changeNotifications(event.target.value as Sender['notifications'])}
          inputProps={{ 'aria-label': t('page.notificationsFor', { sender: senderLabel(sender) }) }}
          sx={{ minWidth: 150 }}
        >
          {SENDER_NOTIFICATIONS.map((value) => <MenuItem key={value} value={value}>{t(`notifications.${value}`)}</MenuItem>)}
        </Select>
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {canReopen(sender) && (
          <Button size="small" startIcon={<ForwardToInboxOutlinedIcon />} onClick={() => onReopen(sender)} sx={{ mr: 1 }}>
            {t('page.verify')}
          </Button>
        )}
        <Tooltip title={t('page.delete')}>
          <IconButton onClick={() => onDelete(sender)} aria-label={t('page.deleteSender', { sender: senderLabel(sender) })}><DeleteOutlineIcon /></IconButton>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}

export default function SendersPage() {
  const { t } = useTranslation(['senders', 'errors']);
  const notify = useNotify();
  const setSenders = useSetSenders();
  const senders = useSenders();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [reopen, setReopen] = useState<Sender | null>(null);
  const [deleting, setDeleting] = useState<Sender | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    try {
      const result = await api.call('deleteSender', { params: { senderId: deleting.id } });
      setSenders.list(result.senders);
      notify('success', t('page.deleted'));
      setDeleting(null);
    } catch (error) {
      notify('error', `${t('page.deleteFailed')} ${translateError(error, t)}`);
    } finally {
      setBusy(false);
    }
  }

  const list = senders.data ?? [];
  return (
    <AccountLayout>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, flex: 1 }}>{t('page.title')}</Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => { setReopen(null); setDialogOpen(true); }}>{t('page.add')}</Button>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 3 }}>{t('page.description')}</Typography>
      {senders.isError && <Alert severity="error" action={<Button color="inherit" onClick={() => void senders.refetch()}>{t('page.retry')}</Button>}>{translateError(senders.error, t)}</Alert>}
      {senders.isPending && <Stack spacing={1} aria-busy="true">{[0, 1, 2].map((key) => <Skeleton key={key} variant="rounded" height={56} />)}</Stack>}
      {senders.isSuccess && list.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <ForwardToInboxOutlinedIcon color="primary" sx={{ fontSize: 48 }} />
          <Typography variant="h6" component="h2" sx={{ mt: 1 }}>{t('page.emptyTitle')}</Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>{t('page.emptyText')}</Typography>
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => { setReopen(null); setDialogOpen(true); }}>{t('page.add')}</Button>
        </Paper>
      )}
      {list.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label={t('page.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('page.sender')}</TableCell>
                <TableCell>{t('page.method')}</TableCell>
                <TableCell>{t('page.status')}</TableCell>
                <TableCell>{t('page.notifications')}</TableCell>
                <TableCell align="right">
                  {/* Named for screen readers only; sx would read width 1 as 100%. */}
                  <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }}>{t('page.actions')}</span>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((sender) => (
                <SenderRow key={sender.id} sender={sender} onReopen={(item) => { setReopen(item); setDialogOpen(true); }} onDelete={setDeleting} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <AddSenderDialog open={dialogOpen} reopen={reopen} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('page.deleteTitle')}
        message={deleting ? t('page.deleteQuestion', { sender: senderLabel(deleting) }) : ''}
        confirmLabel={t('page.delete')}
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </AccountLayout>
  );
}
