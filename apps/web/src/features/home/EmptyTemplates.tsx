import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

/** A sheaf of pages with placeholders being filled: the picture of an empty library. */
function Illustration() {
  return (
    <Box component="svg" viewBox="0 0 200 150" aria-hidden sx={{ width: 220, color: 'primary.main' }}>
      <rect x="62" y="22" width="80" height="104" rx="6" fill="currentColor" opacity="0.12" transform="rotate(-8 102 74)" />
      <rect x="66" y="18" width="80" height="104" rx="6" fill="currentColor" opacity="0.22" transform="rotate(6 106 70)" />
      <rect x="60" y="16" width="80" height="108" rx="6" fill="#fff" stroke="currentColor" strokeWidth="2" />
      <rect x="72" y="32" width="40" height="6" rx="3" fill="currentColor" opacity="0.5" />
      <rect x="72" y="48" width="56" height="10" rx="2" fill="none" stroke="currentColor" strokeDasharray="4 3" strokeWidth="1.5" />
      <rect x="72" y="66" width="44" height="10" rx="2" fill="none" stroke="currentColor" strokeDasharray="4 3" strokeWidth="1.5" />
      <rect x="72" y="86" width="56" height="4" rx="2" fill="currentColor" opacity="0.25" />
      <rect x="72" y="96" width="48" height="4" rx="2" fill="currentColor" opacity="0.25" />
      <circle cx="146" cy="112" r="16" fill="currentColor" />
      <path d="M146 104v16M138 112h16" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </Box>
  );
}

interface Props {
  importButton: React.ReactNode;
}

/** The home page without templates: what the product does and how to start. */
export default function EmptyTemplates({ importButton }: Props) {
  const { t } = useTranslation('home');
  return (
    <Stack sx={{ alignItems: 'center', textAlign: 'center', py: 8, gap: 2 }}>
      <Illustration />
      <Typography variant="h5" component="h2">{t('empty.title')}</Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 460 }}>{t('empty.text')}</Typography>
      <Stack direction="row" spacing={2}>
        <Button variant="contained" size="large" startIcon={<Add />} component={RouterLink} to="/wizard/new">
          {t('create')}
        </Button>
        {importButton}
      </Stack>
    </Stack>
  );
}
