/**
 * /help: how Sheaf works in four steps, the limits of this server, answers to common questions, and the
 * support request (docs/support.md; /help?requestId=... from an error screen fills in the failed call's id).
 */
import { Accordion, AccordionDetails, AccordionSummary, Box, Link, Paper, Stack, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MANUAL_SECONDS_PER_PLACEHOLDER, MAX_UPLOAD_BYTES, MAX_IMAGE_BYTES, MAX_SHEET_ROWS, MIN_PASSWORD_LENGTH, SAVINGS } from '@sheaf/shared';
import { configQuery } from '../../api/routeQuery.ts';
import { SUPPORT_EMAIL } from '../../app/supportContact.ts';
import SupportRequestForm from './SupportRequestForm.tsx';
import { readSupportPrefill } from './supportLink.ts';

const STEPS = ['template', 'placeholders', 'spreadsheet', 'generate'] as const;
const FAQ = ['placeholders', 'spreadsheets', 'headerRow', 'rows', 'passwords', 'encrypted', 'savings', 'data'] as const;

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

export default function HelpPage() {
  const { t, i18n } = useTranslation('help');
  const config = useQuery(configQuery());
  const prefill = readSupportPrefill(useLocation().search);
  const number = new Intl.NumberFormat(i18n.language);
  const limits = {
    maxMb: megabytes(config.data?.maxUploadBytes ?? MAX_UPLOAD_BYTES),
    imageMb: megabytes(config.data?.maxImageBytes ?? MAX_IMAGE_BYTES),
    maxRows: number.format(config.data?.maxSheetRows ?? MAX_SHEET_ROWS),
    minPassword: MIN_PASSWORD_LENGTH,
    dollarsPerHour: SAVINGS.dollarsPerHour,
    placeholdersPerError: SAVINGS.placeholdersPerPreventedError,
    secondsPerPlaceholder: MANUAL_SECONDS_PER_PLACEHOLDER,
  };

  return (
    <Box sx={{ maxWidth: 880, mx: 'auto' }}>
      <Typography variant="h4" component="h1">{t('title')}</Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>{t('intro')}</Typography>

      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 2 }}>{t('steps.title')}</Typography>
      <Box component="ol" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, p: 0, m: 0, listStyle: 'none' }}>
        {STEPS.map((step, index) => (
          <Paper component="li" key={step} variant="outlined" sx={{ p: 2.5 }}>
            <Typography variant="overline" color="primary">{t('steps.number', { number: index + 1 })}</Typography>
            <Typography variant="h6" component="h3">{t(`steps.${step}.title`)}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>{t(`steps.${step}.text`, limits)}</Typography>
          </Paper>
        ))}
      </Box>

      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 2 }}>{t('limits.title')}</Typography>
      <Paper variant="outlined" sx={{ p: 2.5 }}>
        <Stack component="ul" spacing={0.75} sx={{ m: 0, pl: 2.5 }}>
          <li>{t('limits.upload', limits)}</li>
          <li>{t('limits.rows', limits)}</li>
          <li>{t('limits.images', limits)}</li>
          <li>{t('limits.password', limits)}</li>
        </Stack>
      </Paper>

      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 2 }}>{t('faq.title')}</Typography>
      {FAQ.map((item) => (
        <Accordion key={item} disableGutters variant="outlined">
          <AccordionSummary expandIcon={<ExpandMoreIcon />}>
            <Typography sx={{ fontWeight: 600 }}>{t(`faq.${item}.q`)}</Typography>
          </AccordionSummary>
          <AccordionDetails>
            <Typography color="text.secondary">{t(`faq.${item}.a`, limits)}</Typography>
          </AccordionDetails>
        </Accordion>
      ))}

      <Typography id="support" variant="h5" component="h2" sx={{ mt: 4, mb: 2 }}>
        {t(prefill.topic === 'improvement' ? 'support.titleImprovement' : 'support.title')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2.5 }}>
        {/* A new prefill (another error's link) starts a fresh form. */}
        <SupportRequestForm key={`${prefill.topic}-${prefill.requestId ?? ''}`} topic={prefill.topic ?? 'support'} requestId={prefill.requestId} />
      </Paper>

      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>{t('contact.title')}</Typography>
      <Typography color="text.secondary">
        {t('contact.text')} <Link href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Link>
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 4 }}>
        {t('version', { version: __APP_VERSION__ })}
      </Typography>
    </Box>
  );
}
