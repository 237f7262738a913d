/** The top bar of every signed-in page: logo, breadcrumbs, plan and counter chips, user menu. */
import { AppBar, Box, Toolbar, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Logo from '../../components/Logo.tsx';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import CounterChip from './CounterChip.tsx';
import NavBreadcrumbs from './NavBreadcrumbs.tsx';
import PlanChip from './PlanChip.tsx';
import UserMenu from './UserMenu.tsx';

export default function Navbar() {
  const { t } = useTranslation('navbar');
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const { data: user } = useCurrentUser();
  return (
    <AppBar position="sticky" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Toolbar sx={{ gap: { xs: 1, sm: 2 }, minHeight: { xs: 56, sm: 64 } }}>
        <Box component={RouterLink} to="/" aria-label={t('logoHome')} sx={{ display: 'inline-flex', textDecoration: 'none', flexShrink: 0 }}>
          <Logo withName={!narrow} />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <NavBreadcrumbs compact={phone} />
        </Box>
        {user && !phone && <PlanChip user={user} />}
        {user && <CounterChip user={user} />}
        <UserMenu user={user} />
      </Toolbar>
    </AppBar>
  );
}
