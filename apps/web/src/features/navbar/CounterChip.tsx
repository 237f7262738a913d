/** Counter chip: documents generated this period (a spinner while unknown), quota and renewal in the tooltip. */
import { Box, Chip, CircularProgress, Tooltip } from '@mui/material';
import DescriptionIcon from '@mui/icons-material/DescriptionOutlined';
import { useTranslation } from 'react-i18next';
import type { User } from '@sheaf/shared';
import { renewalDate, showsRenewal } from './planInfo.ts';

export default function CounterChip({ user }: { user: User }) {
  const { t, i18n } = useTranslation('navbar');
  const unknown = user.counter < 0;
  const number = new Intl.NumberFormat(i18n.language);
  const renewal = showsRenewal(user) ? renewalDate(user.billingDate) : null;
  const tooltip = (
    <Box>
      <div>
        {user.quota === null
          ? t('counter.unlimited', { count: Math.max(user.counter, 0) })
          : t('counter.usage', { used: number.format(Math.max(user.counter, 0)), quota: number.format(user.quota) })}
      </div>
      {renewal && <div>{t('counter.renews', { date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(renewal) })}</div>}
    </Box>
  );
  return (
    <Tooltip title={tooltip}>
      <Chip
        icon={unknown ? <CircularProgress size={14} aria-label={t('counter.loading')} /> : <DescriptionIcon />}
        label={unknown ? '…' : user.quota === null ? number.format(user.counter) : `${number.format(user.counter)} / ${number.format(user.quota)}`}
        size="small"
        variant="outlined"
        aria-label={t('counter.ariaLabel')}
        tabIndex={0}
      />
    </Tooltip>
  );
}
