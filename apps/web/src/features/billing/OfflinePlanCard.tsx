/**
 * The "Offline Plan" card of /offline: its price for the chosen cycle in the configured reading
 * (GET /v1/plans: per licence with the additional licence's price, or $79 a month billed yearly), what
 * a licence gives, and the number of licences with the total.
 */
import { Box, Paper, Stack, TextField, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import type { BillingCycle, PlanInfo } from '@sheaf/shared';
import { formatUsd, MAX_LICENCES, offlineTotal, priceLine } from './pricing.ts';

interface Props {
  plan: PlanInfo;
  cycle: BillingCycle;
  quantity: string;
  quantityError: string | null;
  onQuantity: (value: string) => void;
  /** Trial documents of the desktop edition without a licence (the Unlicensed plan). */
  trialDocuments: number | null;
  /** The order is being paid: the number of licences can no longer change. */
  disabled: boolean;
  children?: React.ReactNode;
}

export default function OfflinePlanCard({ plan, cycle, quantity, quantityError, onQuantity, trialDocuments, disabled, children }: Props) {
  const { t, i18n } = useTranslation('billing');
  const money = (amount: number) => formatUsd(amount, i18n.language);
  const price = plan.price ? priceLine(plan.price, cycle) : null;
  const extra = plan.additionalLicence ? priceLine(plan.additionalLicence.price, cycle) : null;
  const count = Number(quantity);
  const total = !quantityError && count > 1 ? offlineTotal(plan, cycle, count) : null;
  const line = (value: { perMonth: number; billedYearly: number | null }) =>
    value.billedYearly === null ? t('offline.perMonthMonthly', { price: money(value.perMonth) }) : t('offline.perMonthYearly', { price: money(value.perMonth), total: money(value.billedYearly) });

  return (
    <Paper variant="outlined" component="section" aria-labelledby="offline-plan-title" sx={{ p: { xs: 2.5, sm: 4 }, borderColor: 'primary.main', borderWidth: 2 }}>
      <Typography id="offline-plan-title" variant="h5" component="h2">{t('offline.planName')}</Typography>
      {price && (
        <Box sx={{ mt: 1.5 }}>
          <Typography component="p" sx={{ display: 'flex', alignItems: 'baseline', gap: 0.75 }}>
            <Box component="span" sx={{ fontSize: '2.25rem', fontWeight: 700 }}>{money(price.perMonth)}</Box>
            <Box component="span" sx={{ color: 'text.secondary' }}>{t('price.perMonth')}</Box>
          </Typography>
          <Typography color="text.secondary">
            {price.billedYearly === null ? t('price.billedMonthly') : t('price.billedYearly', { total: money(price.billedYearly) })}
          </Typography>
          {extra && <Typography color="text.secondary" sx={{ mt: 0.5 }}>{t('offline.additionalLicence', { price: line(extra) })}</Typography>}
        </Box>
      )}
      <Stack component="ul" spacing={0.75} sx={{ p: 0, my: 2.5, listStyle: 'none' }}>
        {[
          t('offline.features.unlimited'),
          t('offline.features.perComputer'),
          t('offline.features.privacy'),
          t('offline.features.platforms'),
          t('offline.features.pdfOnly'),
          t('offline.features.smtp'),
          t(`features.support.${plan.support}`),
          trialDocuments ? t('offline.features.trial', { documents: trialDocuments }) : null,
        ].filter(Boolean).map((text) => (
          <Typography component="li" key={text} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            <CheckIcon fontSize="small" color="success" aria-hidden sx={{ mt: 0.25 }} />
            {text}
          </Typography>
        ))}
      </Stack>
      <TextField
        id="offline-quantity"
        name="quantity"
        type="number"
        label={t('offline.quantity')}
        value={quantity}
        onChange={(event) => onQuantity(event.target.value)}
        error={Boolean(quantityError)}
        helperText={quantityError ?? t('offline.quantityHelp')}
        // Read-only rather than disabled while the checkout is open: the number stays legible (contrast).
        slotProps={{ htmlInput: { min: 1, max: MAX_LICENCES, step: 1, inputMode: 'numeric', readOnly: disabled } }}
        sx={{ maxWidth: 240 }}
        fullWidth={false}
      />
      {total && <Typography sx={{ mt: 1.5, fontWeight: 600 }} role="status">{t('offline.total', { licences: count, price: line(total) })}</Typography>}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>{t('notes.vat')} {t('offline.noRefund')}</Typography>
      {children}
    </Paper>
  );
}
