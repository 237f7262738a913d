/** Google, Apple and Microsoft sign-in: shown, disabled until OIDC sign-in lands. */
import { Box, Button, Divider, Tooltip } from '@mui/material';
import AppleIcon from '@mui/icons-material/Apple';
import GoogleIcon from '@mui/icons-material/Google';
import MicrosoftIcon from '@mui/icons-material/Microsoft';
import { useTranslation } from 'react-i18next';

const PROVIDERS = [
  { id: 'google', name: 'Google', icon: <GoogleIcon /> },
  { id: 'apple', name: 'Apple', icon: <AppleIcon /> },
  { id: 'microsoft', name: 'Microsoft', icon: <MicrosoftIcon /> },
] as const;

export default function SocialButtons() {
  const { t } = useTranslation('auth');
  return (
    <>
      <Divider sx={{ my: 2.5 }}>{t('or')}</Divider>
      <Box sx={{ display: 'grid', gap: 1 }}>
        {PROVIDERS.map((provider) => (
          <Tooltip key={provider.id} title={t('comingSoon')}>
            {/* A disabled button fires no events: the span carries the tooltip. */}
            <span>
              <Button fullWidth variant="outlined" startIcon={provider.icon} disabled>
                {t('continueWith', { provider: provider.name })}
              </Button>
            </span>
          </Tooltip>
        ))}
      </Box>
    </>
  );
}
