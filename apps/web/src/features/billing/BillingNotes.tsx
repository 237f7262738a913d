/**
 * The small print of the pricing table (docs/billing.md#the-billing-pages): the money-back guarantee
 * (its days from GET /v1/plans), USD excluding VAT, and the announced price increase (its date from
 * GET /v1/plans, in the UI language; nothing when none is announced or the day has come).
 */
import { Alert, Box, Stack, Typography } from '@mui/material';
import VerifiedIcon from '@mui/icons-material/VerifiedUserOutlined';
import { useTranslation } from 'react-i18next';
import { showsPriceIncrease } from './pricing.ts';

export function PriceIncreaseNotice({ date }: { date: string | null }) {
  const { t, i18n } = useTranslation('billing');
  if (!date || !showsPriceIncrease(date, new Date())) return null;
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
  return <Alert severity="info" sx={{ mb: 3 }}>{t('notes.priceIncrease', { date: day })}</Alert>;
}

export default function BillingNotes({ refundDays }: { refundDays: number }) {
  const { t } = useTranslation('billing');
  return (
    <Stack spacing={1.5} sx={{ mt: 2.5 }}>
      {refundDays > 0 && (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          <VerifiedIcon color="primary" aria-hidden />
          <Box>
            <Typography sx={{ fontWeight: 600 }}>{t('notes.guaranteeTitle', { days: refundDays })}</Typography>
            <Typography variant="body2" color="text.secondary">{t('notes.guarantee', { days: refundDays })}</Typography>
          </Box>
        </Box>
      )}
      <Typography variant="body2" color="text.secondary">{t('notes.vat')}</Typography>
    </Stack>
  );
}
