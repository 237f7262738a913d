/**
 * Step 0 of the add-sender dialog: the three methods as radio cards. A method the plan or edition
 * does not allow is greyed out with the reason and an upgrade link
 * (docs/email.md#sender-methods-by-plan).
 */
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Box, FormControlLabel, Link, Paper, Radio, RadioGroup, Stack, Typography } from '@mui/material';
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import { SENDER_METHODS, type BillingPlan, type Edition, type SenderMethod } from '@sheaf/shared';
import { translateCode } from '../../i18n/errors.ts';
import { methodAvailability } from './senderRules.ts';

const ICONS: Record<SenderMethod, typeof DnsOutlinedIcon> = { spoof: AlternateEmailIcon, domain: DnsOutlinedIcon, smtp: OutboxOutlinedIcon };

interface Props {
  value: SenderMethod | null;
  onChange: (method: SenderMethod) => void;
  plan: BillingPlan;
  edition: Edition;
}

export default function MethodStep({ value, onChange, plan, edition }: Props) {
  const { t } = useTranslation(['senders', 'errors']);
  return (
    <RadioGroup value={value ?? ''} onChange={(_, method) => onChange(method as SenderMethod)} aria-label={t('dialog.methodLabel')}>
      <Stack spacing={1.5}>
        {SENDER_METHODS.map((method) => {
          const { allowed, hint } = methodAvailability(method, plan, edition);
          const Icon = ICONS[method];
          return (
            <Paper key={method} variant="outlined" sx={{ p: 1.5, borderColor: value === method ? 'primary.main' : undefined }}>
              <FormControlLabel
                value={method}
                disabled={!allowed}
                control={<Radio />}
                sx={{ alignItems: 'flex-start', m: 0, width: '100%' }}
                label={
                  <Box sx={{ pt: 0.75 }}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Icon fontSize="small" color={allowed ? 'primary' : 'disabled'} />
                      <Typography sx={{ fontWeight: 600 }}>{t(`method.${method}`)}</Typography>
                    </Stack>
                    <Typography variant="body2" color="text.secondary">{t(`method.${method}Description`)}</Typography>
                  </Box>
                }
              />
              {hint && (
                <Typography variant="body2" color="warning.main" sx={{ ml: 5, mt: 0.5 }}>
                  {translateCode(hint, undefined, t)}{' '}
                  {edition === 'web' && <Link component={RouterLink} to="/billing">{t('dialog.upgrade')}</Link>}
                </Typography>
              )}
            </Paper>
          );
        })}
      </Stack>
    </RadioGroup>
  );
}
