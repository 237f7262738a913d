/**
 * /users, a tab of the account area for account holders (docs/accounts.md#child-users): the account's
 * child users with their status, the seats the plan has ("2 of 5 users") and, at the limit, the way
 * to more; creating a user, disabling or enabling one, sending a password reset and deleting one (after
 * a confirmation), each with a snackbar. A child user opening it is told users are the admin's.
 */
import { useState } from 'react';
import { Alert, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import GroupIcon from '@mui/icons-material/GroupAddOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ChildUser, Seats } from '@sheaf/shared';
import { useNotify } from '../../app/snackbar.tsx';
import ConfirmDialog from '../../components/ConfirmDialog.tsx';
import { translateError } from '../../i18n/errors.ts';
import AccountLayout from '../account/AccountLayout.tsx';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import { useEdition } from '../senders/useSenders.ts';
import { useChildUserCalls, useChildUsers, type ChildUserAction } from './api.ts';
import { childUserName, planWithMoreUsers, seatState } from './childUsers.ts';
import ChildUsersTable from './ChildUsersTable.tsx';
import CreateUserDialog from './CreateUserDialog.tsx';

const SNACKBAR_KEYS: Record<ChildUserAction, { success: string; failure: string }> = {
  disable: { success: 'snackbar.disableSuccess', failure: 'snackbar.disableFailure' },
  enable: { success: 'snackbar.enableSuccess', failure: 'snackbar.enableFailure' },
  reset: { success: 'snackbar.resetSuccess', failure: 'snackbar.resetFailure' },
  delete: { success: 'snackbar.deleteSuccess', failure: 'snackbar.deleteFailure' },
};

/** The seats line and, at the limit, what adds users: a plan with more (a link to /billing), or nothing more to add. */
function SeatsNotice({ seats }: { seats: Seats }) {
  const { t } = useTranslation(['users', 'navbar']);
  const edition = useEdition();
  const { used, limit, full } = seatState(seats);
  const more = planWithMoreUsers(limit, edition);
  const upgrade = more && (
    <Button component={RouterLink} to="/billing" color="inherit" size="small">{t('upgrade.action')}</Button>
  );
  return (
    <>
      <Typography sx={{ mb: full ? 1 : 3, fontWeight: 600 }} data-testid="seats">
        {t('seats', { used, count: limit })}
        <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>{t('seatsHelp')}</Typography>
      </Typography>
      {full && (
        <Alert severity="info" action={upgrade} sx={{ mb: 3 }}>
          {limit === 1 && more && t('upgrade.noUsers', { plan: t(`navbar:plans.${more.plan}`), users: more.users })}
          {limit > 1 && more && t('upgrade.full', { plan: t(`navbar:plans.${more.plan}`), users: more.users })}
          {limit > 1 && !more && t('upgrade.fullTopPlan')}
          {limit === 1 && !more && t('upgrade.unavailable')}
        </Alert>
      )}
    </>
  );
}

function ChildUsersContent() {
  const { t } = useTranslation(['users', 'errors']);
  const notify = useNotify();
  const list = useChildUsers(true);
  const calls = useChildUserCalls();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ChildUser | null>(null);
  const [busyUid, setBusyUid] = useState<string | null>(null);

  async function run(action: ChildUserAction, user: ChildUser) {
    setBusyUid(user.uid);
    const keys = SNACKBAR_KEYS[action];
    try {
      await calls.run(action, user.uid);
      notify('success', t(keys.success, { name: childUserName(user), email: user.email }));
      if (action === 'delete') setDeleting(null);
    } catch (error) {
      notify('error', `${t(keys.failure, { name: childUserName(user), email: user.email })} ${translateError(error, t)}`);
    } finally {
      setBusyUid(null);
    }
  }

  const onAction = (action: ChildUserAction, user: ChildUser) => (action === 'delete' ? setDeleting(user) : void run(action, user));
  const data = list.data;
  const full = data ? seatState(data.seats).full : true;
  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, flex: 1 }}>{t('title')}</Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} disabled={full}>{t('create')}</Button>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>{t('description')}</Typography>
      {list.isError && (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void list.refetch()}>{t('retry')}</Button>}>
          {t('loadFailed')} {translateError(list.error, t)}
        </Alert>
      )}
      {list.isPending && <Stack spacing={1} aria-busy="true">{[0, 1, 2].map((key) => <Skeleton key={key} variant="rounded" height={56} />)}</Stack>}
      {data && <SeatsNotice seats={data.seats} />}
      {data && data.users.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <GroupIcon color="primary" sx={{ fontSize: 48 }} />
          <Typography variant="h6" component="h2" sx={{ mt: 1 }}>{t('empty.title')}</Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>{t('empty.text')}</Typography>
        </Paper>
      )}
      {data && data.users.length > 0 && <ChildUsersTable users={data.users} busyUid={busyUid} onAction={onAction} />}
      <CreateUserDialog open={creating} onClose={() => setCreating(false)} onCreate={calls.create} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title', { name: deleting ? childUserName(deleting) : '' })}
        message={t('confirmDelete.text', { email: deleting?.email ?? '' })}
        confirmLabel={t('confirmDelete.confirm')}
        destructive
        busy={deleting !== null && busyUid === deleting.uid}
        onConfirm={() => deleting && void run('delete', deleting)}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

export default function UsersPage() {
  const { t } = useTranslation('users');
  const user = useCurrentUser().data;
  return (
    <AccountLayout>
      {!user && <Skeleton variant="rounded" height={240} aria-busy="true" />}
      {user?.parentUid && (
        <>
          <Typography variant="h5" component="h1" sx={{ mb: 3, fontWeight: 600 }}>{t('title')}</Typography>
          <Alert severity="info" action={<Button component={RouterLink} to="/" color="inherit">{t('home')}</Button>}>{t('childOnly')}</Alert>
        </>
      )}
      {user && !user.parentUid && <ChildUsersContent />}
    </AccountLayout>
  );
}
