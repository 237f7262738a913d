/**
 * The account's offline licences (GET /v1/licences; docs/billing.md#licences): each key in groups of
 * five with a copy button, its computers used of the limit, and its expiry; a link to buy one. Shown
 * to account holders when the account has licences, or on the desktop edition (licences.ts showsLicences).
 */
import { Alert, Box, Button, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatLicenceKey, type Licence, type User } from '@sheaf/shared';
import { useNotify } from '../../app/snackbar.tsx';
import { licencesQuery } from '../billing/api.ts';
import { useEdition } from '../senders/useSenders.ts';
import { licenceExpiry, machineLimitReached, showsLicences } from './licences.ts';
import SettingsSection from './SettingsSection.tsx';

function LicenceItem({ licence }: { licence: Licence }) {
  const { t, i18n } = useTranslation('account');
  const notify = useNotify();
  const key = formatLicenceKey(licence.key);
  const expiry = licenceExpiry(licence, new Date());
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(licence.expiresAt));
  const expired = expiry.kind === 'expired';
  const copy = () =>
    navigator.clipboard.writeText(key).then(
      () => notify('success', t('licences.copied')),
      () => notify('error', t('licences.copyFailed')),
    );

  return (
    <Box component="li" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography component="span" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '1.05rem', letterSpacing: 0.5 }}>
          {key}
        </Typography>
        <Tooltip title={t('licences.copy')}>
          <IconButton size="small" onClick={() => void copy()} aria-label={t('licences.copy')}>
            <CopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Chip size="small" label={expired ? t('licences.status.expired') : t('licences.status.active')} color={expired ? 'error' : 'success'} variant="outlined" />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('licences.plan', { plan: t(`plan.names.${licence.plan}`) })} · {t('licences.machines', { used: licence.machines, limit: licence.machineLimit })}
      </Typography>
      <Typography variant="body2" color={expired ? 'error' : expiry.kind === 'later' ? 'text.secondary' : 'warning.main'}>
        {expiry.kind === 'expired' && t('licences.expired', { date })}
        {expiry.kind === 'today' && t('licences.expiresToday')}
        {expiry.kind === 'soon' && t('licences.expiresIn', { count: expiry.days, date })}
        {expiry.kind === 'later' && t('licences.expires', { date })}
      </Typography>
      {!expired && machineLimitReached(licence) && <Typography variant="body2" color="text.secondary">{t('licences.machineLimitReached')}</Typography>}
    </Box>
  );
}

export default function LicencesSection({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const edition = useEdition();
  // Licences are billing: a child user is refused them (docs/licences.md#the-accounts-licences).
  const isChild = Boolean(user.parentUid);
  const licences = useQuery({ ...licencesQuery(), enabled: !isChild });
  const list = licences.data?.licences ?? [];
  if (isChild || !showsLicences(list.length, edition)) return null;

  return (
    <SettingsSection title={t('licences.title')} description={t('licences.description')}>
      {licences.isError && <Alert severity="error" sx={{ mb: 2 }}>{t('licences.loadFailed')}</Alert>}
      {licences.isSuccess && list.length === 0 && <Typography color="text.secondary" sx={{ mb: 2 }}>{t('licences.none')}</Typography>}
      {list.length > 0 && (
        <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0, mb: 2, listStyle: 'none' }}>
          {list.map((licence) => <LicenceItem key={licence.key} licence={licence} />)}
        </Stack>
      )}
      <Button component={RouterLink} to="/offline" variant="outlined">{t('licences.buy')}</Button>
    </SettingsSection>
  );
}
