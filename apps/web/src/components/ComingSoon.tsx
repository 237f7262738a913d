/** Placeholder page for areas of later releases (users, senders, email report, billing, API keys, integrations). */
import { Box, Button, Paper, Typography } from '@mui/material';
import ConstructionIcon from '@mui/icons-material/ConstructionOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation(['common', 'navbar']);
  const title = t(titleKey, { ns: 'navbar' });
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, sm: 6 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        <ConstructionIcon color="primary" sx={{ fontSize: 56 }} />
        <Typography variant="h4" component="h1" sx={{ mt: 1 }}>{title}</Typography>
        <Typography color="text.secondary" sx={{ mt: 1.5 }}>{t('comingSoon.text', { area: title })}</Typography>
        <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>{t('backHome')}</Button>
      </Paper>
    </Box>
  );
}
