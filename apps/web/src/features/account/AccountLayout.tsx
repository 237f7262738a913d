import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import type { ReactNode } from 'react';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import AccountTabs from './AccountTabs.tsx';

/**
 * The account area: vertical tabs on the left, the tab's page on the right. Other account-area pages
 * (users, senders, billing, ...) can wrap themselves in it to keep the tabs.
 */
export default function AccountLayout({ children }: { children: ReactNode }) {
  const user = useCurrentUser().data;
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 3, alignItems: 'flex-start' }}>
        <AccountTabs isChildUser={Boolean(user?.parentUid)} />
        <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>{children}</Box>
      </Box>
    </Container>
  );
}
