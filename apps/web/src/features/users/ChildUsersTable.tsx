/**
 * The account's child users as a table (name, email, status, created) with each user's actions:
 * disable or enable, send a password reset, delete (the page confirms it first).
 */
import { Chip, IconButton, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EnableIcon from '@mui/icons-material/HowToRegOutlined';
import ResetIcon from '@mui/icons-material/LockResetOutlined';
import DisableIcon from '@mui/icons-material/PersonOffOutlined';
import { useTranslation } from 'react-i18next';
import type { ChildUser } from '@sheaf/shared';
import type { ChildUserAction } from './api.ts';
import { childUserName } from './childUsers.ts';

/** Named for screen readers only (a column of buttons has no visible heading). */
const visuallyHidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

interface Props {
  users: ChildUser[];
  /** The user an action is running for (its buttons wait). */
  busyUid: string | null;
  onAction: (action: ChildUserAction, user: ChildUser) => void;
}

function ActionButton({ label, onClick, disabled, children }: { label: string; onClick: () => void; disabled: boolean; children: React.ReactNode }) {
  return (
    // describeChild: the span gets a title, not a second name (the button carries its own label).
    <Tooltip title={label} describeChild>
      {/* A disabled button gets no pointer events: the span keeps its tooltip. */}
      <span>
        <IconButton onClick={onClick} disabled={disabled} aria-label={label}>{children}</IconButton>
      </span>
    </Tooltip>
  );
}

function ChildUserRow({ user, busy, onAction }: { user: ChildUser; busy: boolean; onAction: Props['onAction'] }) {
  const { t, i18n } = useTranslation('users');
  const name = childUserName(user);
  const created = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(user.createdAt));
  const active = user.status === 'active';
  return (
    <TableRow data-testid="child-user-row">
      <TableCell component="th" scope="row">
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
      </TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{user.email}</TableCell>
      <TableCell>
        <Chip size="small" label={t(`status.${user.status}`)} color={active ? 'success' : 'default'} variant={active ? 'filled' : 'outlined'} />
      </TableCell>
      <TableCell>{created}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {active ? (
          <ActionButton label={t('actions.disable', { name })} onClick={() => onAction('disable', user)} disabled={busy}><DisableIcon /></ActionButton>
        ) : (
          <ActionButton label={t('actions.enable', { name })} onClick={() => onAction('enable', user)} disabled={busy}><EnableIcon /></ActionButton>
        )}
        {/* A disabled user cannot sign in, so a reset link would not help them (the server refuses it too). */}
        <ActionButton label={t('actions.reset', { name })} onClick={() => onAction('reset', user)} disabled={busy || !active}><ResetIcon /></ActionButton>
        <ActionButton label={t('actions.delete', { name })} onClick={() => onAction('delete', user)} disabled={busy}><DeleteOutlineIcon /></ActionButton>
      </TableCell>
    </TableRow>
  );
}

export default function ChildUsersTable({ users, busyUid, onAction }: Props) {
  const { t } = useTranslation('users');
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label={t('table.label')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('table.name')}</TableCell>
            <TableCell>{t('table.email')}</TableCell>
            <TableCell>{t('table.status')}</TableCell>
            <TableCell>{t('table.created')}</TableCell>
            <TableCell align="right"><span style={visuallyHidden}>{t('table.actions')}</span></TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((user) => <ChildUserRow key={user.uid} user={user} busy={busyUid === user.uid} onAction={onAction} />)}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
