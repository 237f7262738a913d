/**
 * Google, Apple and Microsoft sign-in (docs/accounts.md#social-sign-in): a button for each provider the
 * server offers (GET /config authProviders), none at all when it offers none. A button leaves for the
 * provider in this tab (a full-page round trip; /oauth/callback takes the answer).
 */
import { Box, Button, Divider } from '@mui/material';
import AppleIcon from '@mui/icons-material/Apple';
import GoogleIcon from '@mui/icons-material/Google';
import MicrosoftIcon from '@mui/icons-material/Microsoft';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OAUTH_PROVIDER_NAMES, type OAuthIntent, type OAuthProvider } from '@sheaf/shared';
import { configQuery } from '../../api/routeQuery.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { oauthStartUrl } from './oauth.ts';

const ICONS: Record<OAuthProvider, React.ReactNode> = {
  google: <GoogleIcon />,
  apple: <AppleIcon />,
  microsoft: <MicrosoftIcon />,
};

export default function SocialButtons({ intent, next }: { intent: OAuthIntent; next?: string | undefined }) {
  const { t } = useTranslation('auth');
  const config = useQuery(configQuery());
  const providers = config.data?.authProviders ?? [];
  if (providers.length === 0) return null;
  return (
    <>
      <Divider sx={{ my: 2.5 }}>{t('or')}</Divider>
      <Box sx={{ display: 'grid', gap: 1 }}>
        {providers.map((provider) => (
          <Button
            key={provider}
            fullWidth
            variant="outlined"
            startIcon={ICONS[provider]}
            href={oauthStartUrl(provider, intent, { next, language: currentLanguage() })}
          >
            {t('continueWith', { provider: OAUTH_PROVIDER_NAMES[provider] })}
          </Button>
        ))}
      </Box>
    </>
  );
}
