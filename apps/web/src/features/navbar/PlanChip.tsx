/** Plan chip: the plan's name; Free adds "upgrade" (or "child user"); opens billing for parent users. */
import { Chip, Tooltip } from '@mui/material';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremiumOutlined';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { User } from '@sheaf/shared';
import { useEdition } from '../senders/useSenders.ts';
import { isChildUser, offersUpgrade } from './planInfo.ts';

export default function PlanChip({ user }: { user: User }) {
  const { t } = useTranslation('navbar');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const child = isChildUser(user);
  const free = offersUpgrade(user, useEdition());
  const plan = t(`plans.${user.billingPlan}`);
  const label = free ? `${plan} · ${child ? t('plan.child') : t('plan.upgrade')}` : plan;
  const clickable = !child && pathname !== '/billing';
  const chip = (
    <Chip
      icon={<WorkspacePremiumIcon />}
      label={label}
      color={free ? 'secondary' : 'primary'}
      variant={free ? 'outlined' : 'filled'}
      size="small"
      onClick={clickable ? () => navigate('/billing') : undefined}
      aria-label={t('plan.ariaLabel', { plan: label })}
    />
  );
  return child ? <Tooltip title={t('plan.askAdmin')}>{chip}</Tooltip> : chip;
}
