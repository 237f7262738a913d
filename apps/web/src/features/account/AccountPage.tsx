import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import AccountLayout from './AccountLayout.tsx';
import AutoUpdatesSection from './AutoUpdatesSection.tsx';
import DeleteAccountSection from './DeleteAccountSection.tsx';
import EmailSection from './EmailSection.tsx';
import LanguageSection from './LanguageSection.tsx';
import LicencesSection from './LicencesSection.tsx';
import NoPasswordNotice from './NoPasswordNotice.tsx';
import PasswordSection from './PasswordSection.tsx';
import PlanSection from './PlanSection.tsx';
import ProfileSection from './ProfileSection.tsx';

/** `/account`: the Account tab of the account area (docs/web-app.md#account-area). */
export default function AccountPage() {
  const { t } = useTranslation('account');
  const me = useCurrentUser();
  const user = me.data;

  return (
    <AccountLayout>
      <Typography variant="h5" component="h1" sx={{ mb: 3, fontWeight: 600 }}>{t('title')}</Typography>
      {!user && me.isError && <Alert severity="error">{t('loadFailed')}</Alert>}
      {!user && !me.isError && (
        <Stack spacing={2} aria-busy="true">
          {[0, 1, 2].map((key) => <Skeleton key={key} variant="rounded" height={160} />)}
        </Stack>
      )}
      {user && (
        <Stack spacing={3}>
          <PlanSection user={user} />
          <LicencesSection user={user} />
          {/* Keyed by the saved values so the form shows them again after another tab changed them. */}
          <ProfileSection key={`${user.firstName}\u0000${user.lastName}\u0000${user.company}`} user={user} />
          <NoPasswordNotice user={user} />
          <EmailSection user={user} />
          <LanguageSection />
          <PasswordSection />
          <AutoUpdatesSection />
          <DeleteAccountSection />
        </Stack>
      )}
    </AccountLayout>
  );
}
