/** /terms and /privacy: short plain-language texts in the current language, open to everyone. */
import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import Logo from '../../components/Logo.tsx';
import LanguageSelector from '../../components/LanguageSelector.tsx';

export default function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t } = useTranslation('help');
  const paragraphs = t(`legal.${kind}.paragraphs`, { returnObjects: true }) as unknown;
  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', px: 2, py: 3 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 3, gap: 2 }}>
        <Logo />
        <LanguageSelector />
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography variant="h4" component="h1" gutterBottom>{t(`legal.${kind}.title`)}</Typography>
        {(Array.isArray(paragraphs) ? (paragraphs as string[]) : []).map((text, index) => (
          <Typography key={index} sx={{ mt: 1.5 }}>{text}</Typography>
        ))}
        <Button href="/" sx={{ mt: 3 }}>{t('common:backHome')}</Button>
      </Paper>
    </Box>
  );
}
