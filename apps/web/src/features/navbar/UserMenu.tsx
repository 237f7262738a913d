/**
 * The user menu: account areas (users, API keys, integrations and billing hidden for child users),
 * billing labelled "Upgrade plan" with a badge on the Free plan, on the desktop edition "Manage licence"
 * and "Buy a licence", suggest improvement, log out.
 */
import { useState, type ReactNode } from 'react';
import { Avatar, Badge, Divider, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import AccountIcon from '@mui/icons-material/AccountCircleOutlined';
import ApiIcon from '@mui/icons-material/KeyOutlined';
import BillingIcon from '@mui/icons-material/CreditCardOutlined';
import BuyIcon from '@mui/icons-material/ShoppingCartOutlined';
import HelpIcon from '@mui/icons-material/HelpOutlined';
import IdeaIcon from '@mui/icons-material/LightbulbOutlined';
import IntegrationsIcon from '@mui/icons-material/ExtensionOutlined';
import LicenceIcon from '@mui/icons-material/VpnKeyOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import ReportIcon from '@mui/icons-material/AssessmentOutlined';
import SendersIcon from '@mui/icons-material/AlternateEmailOutlined';
import UsersIcon from '@mui/icons-material/GroupOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { User } from '@sheaf/shared';
import { useAuth } from '../auth/useAuth.ts';
import { useEdition } from '../senders/useSenders.ts';
import { isChildUser, offersUpgrade } from './planInfo.ts';
import SuggestImprovementDialog from './SuggestImprovementDialog.tsx';

interface Entry {
  path: string;
  label: string;
  icon: ReactNode;
  parentOnly: boolean;
  badge?: boolean;
}

function initials(user: User | undefined): string {
  const letters = `${user?.firstName?.[0] ?? ''}${user?.lastName?.[0] ?? ''}`.toUpperCase();
  return letters || (user?.email?.[0]?.toUpperCase() ?? '?');
}

export default function UserMenu({ user }: { user: User | undefined }) {
  const { t } = useTranslation('navbar');
  const navigate = useNavigate();
  const { logout } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [suggesting, setSuggesting] = useState(false);
  const child = isChildUser(user);
  const edition = useEdition();
  const free = offersUpgrade(user, edition);

  const entries: Entry[] = [
    { path: '/account', label: t('pages.account'), icon: <AccountIcon fontSize="small" />, parentOnly: false },
    { path: '/users', label: t('pages.users'), icon: <UsersIcon fontSize="small" />, parentOnly: true },
    { path: '/senders', label: t('pages.senders'), icon: <SendersIcon fontSize="small" />, parentOnly: false },
    { path: '/email-report', label: t('pages.emailReport'), icon: <ReportIcon fontSize="small" />, parentOnly: false },
    { path: '/api-keys', label: t('pages.apiKeys'), icon: <ApiIcon fontSize="small" />, parentOnly: true },
    { path: '/integrations', label: t('pages.integrations'), icon: <IntegrationsIcon fontSize="small" />, parentOnly: true },
    { path: '/billing', label: free ? t('menu.upgradePlan') : t('pages.billing'), icon: <BillingIcon fontSize="small" />, parentOnly: true, badge: free },
    // The desktop edition runs on a licence: where to see it and where to buy one (docs/web-app.md#navbar).
    ...(edition === 'desktop'
      ? [
          { path: '/account', label: t('menu.manageLicence'), icon: <LicenceIcon fontSize="small" />, parentOnly: true },
          { path: '/offline', label: t('menu.buyLicence'), icon: <BuyIcon fontSize="small" />, parentOnly: true },
        ]
      : []),
    { path: '/help', label: t('pages.help'), icon: <HelpIcon fontSize="small" />, parentOnly: false },
  ];
  const visible = entries.filter((entry) => !(entry.parentOnly && child));
  const go = (path: string) => {
    setAnchor(null);
    navigate(path);
  };

  return (
    <>
      <Tooltip title={t('menu.open')}>
        <IconButton onClick={(event) => setAnchor(event.currentTarget)} aria-label={t('menu.open')} aria-haspopup="menu" aria-expanded={Boolean(anchor)} size="small">
          <Badge color="secondary" variant="dot" invisible={!free || child} overlap="circular">
            <Avatar sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 15 }}>{initials(user)}</Avatar>
          </Badge>
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        {user && (
          // Shown for sighted users; a menu may hold only menu items, so it stays out of the accessibility tree.
          <Typography component="li" aria-hidden variant="body2" color="text.secondary" sx={{ px: 2, py: 1, maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {user.email}
          </Typography>
        )}
        {user && <Divider component="li" />}
        {visible.map((entry) => (
          <MenuItem key={`${entry.path} ${entry.label}`} onClick={() => go(entry.path)}>
            <ListItemIcon>{entry.icon}</ListItemIcon>
            <ListItemText>{entry.label}</ListItemText>
            {entry.badge && <Badge color="secondary" variant="dot" sx={{ ml: 3 }} aria-label={t('menu.upgradeBadge')} />}
          </MenuItem>
        ))}
        <Divider component="li" />
        <MenuItem onClick={() => { setAnchor(null); setSuggesting(true); }}>
          <ListItemIcon><IdeaIcon fontSize="small" /></ListItemIcon>
          <ListItemText>{t('menu.suggest')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => { setAnchor(null); void logout().then(() => navigate('/login')); }}>
          <ListItemIcon><LogoutIcon fontSize="small" /></ListItemIcon>
          <ListItemText>{t('menu.logout')}</ListItemText>
        </MenuItem>
      </Menu>
      <SuggestImprovementDialog open={suggesting} onClose={() => setSuggesting(false)} />
    </>
  );
}
