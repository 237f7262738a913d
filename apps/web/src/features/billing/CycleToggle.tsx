/** Monthly or yearly billing (yearly by default, remembered on this device: billingCycle.ts). */
import { Box, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { BillingCycle } from '@sheaf/shared';

interface Props {
  cycle: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
  /** Months free when billed yearly (pricing.ts monthsFreeYearly); 0 shows no saving. */
  monthsFree: number;
}

export default function CycleToggle({ cycle, onChange, monthsFree }: Props) {
  const { t } = useTranslation('billing');
  return (
    <ToggleButtonGroup
      exclusive
      color="primary"
      size="small"
      value={cycle}
      aria-label={t('cycle.label')}
      onChange={(_, value: BillingCycle | null) => value && onChange(value)}
    >
      <ToggleButton value="month" sx={{ px: 2 }}>{t('cycle.month')}</ToggleButton>
      <ToggleButton value="year" sx={{ px: 2, gap: 1 }}>
        {t('cycle.year')}
        {monthsFree > 0 && (
          <Box component="span" sx={{ fontSize: '0.75rem', fontWeight: 600, color: 'secondary.main' }}>
            {t('cycle.monthsFree', { count: monthsFree })}
          </Box>
        )}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
