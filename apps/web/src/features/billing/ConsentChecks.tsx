/**
 * The two ticks before paying (docs/billing.md#checkout): the terms and privacy policy (links open in
 * a new tab) and the waiver of the right of withdrawal, each with its error under it when unticked.
 */
import { Box, Checkbox, FormControlLabel, FormHelperText, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { translateCode } from '../../i18n/errors.ts';
import type { Consent, ConsentErrors } from './consent.ts';

interface Props {
  consent: Consent;
  errors: ConsentErrors;
  onChange: (consent: Consent) => void;
  disabled?: boolean;
  /** Makes the ids unique when two forms are on one page. */
  idPrefix: string;
}

export default function ConsentChecks({ consent, errors, onChange, disabled, idPrefix }: Props) {
  const { t } = useTranslation(['billing', 'errors']);
  const linkSx = { fontWeight: 600 };
  const boxes = [
    {
      name: 'acceptTerms' as const,
      label: (
        <Trans
          t={t}
          i18nKey="billing:consent.terms"
          components={{
            terms: <Link component={RouterLink} to="/terms" target="_blank" rel="noopener" sx={linkSx} />,
            privacy: <Link component={RouterLink} to="/privacy" target="_blank" rel="noopener" sx={linkSx} />,
          }}
        />
      ),
    },
    { name: 'waiveWithdrawal' as const, label: t('billing:consent.waiver') },
  ];
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {boxes.map(({ name, label }) => {
        const error = errors[name];
        const errorId = `${idPrefix}-${name}-error`;
        return (
          <Box key={name}>
            <FormControlLabel
              sx={{ alignItems: 'flex-start', '& .MuiCheckbox-root': { pt: 0.5 } }}
              control={
                <Checkbox
                  name={name}
                  checked={consent[name]}
                  disabled={disabled}
                  onChange={(event) => onChange({ ...consent, [name]: event.target.checked })}
                  slotProps={{ input: { 'aria-invalid': Boolean(error), 'aria-describedby': error ? errorId : undefined } }}
                />
              }
              label={label}
            />
            {error && <FormHelperText id={errorId} error sx={{ ml: 4 }}>{translateCode(error, undefined, t)}</FormHelperText>}
          </Box>
        );
      })}
    </Box>
  );
}
