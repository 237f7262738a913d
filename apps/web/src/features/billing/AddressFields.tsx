/** The EU billing address fields (organization, two lines, zip, city, country, VAT id), errors under each. */
import { useMemo } from 'react';
import { Box, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { countryOptions, type AddressField, type AddressValues } from './address.ts';

interface Props {
  values: AddressValues;
  /** Translated messages by field. */
  errors: Partial<Record<AddressField, string>>;
  onChange: (field: AddressField, value: string) => void;
  disabled?: boolean;
}

const AUTOCOMPLETE: Record<AddressField, string> = {
  organization: 'organization',
  line1: 'address-line1',
  line2: 'address-line2',
  zip: 'postal-code',
  city: 'address-level2',
  country: 'country',
  vatId: 'off',
};
const REQUIRED = new Set<AddressField>(['line1', 'zip', 'city', 'country']);
const WIDE = new Set<AddressField>(['organization', 'line1', 'line2', 'vatId']);

export default function AddressFields({ values, errors, onChange, disabled }: Props) {
  const { t, i18n } = useTranslation('billing');
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const field = (name: AddressField) => ({
    name,
    id: `billing-address-${name}`,
    label: t(`address.${name}`),
    value: values[name],
    required: REQUIRED.has(name),
    disabled,
    autoComplete: AUTOCOMPLETE[name],
    error: Boolean(errors[name]),
    helperText: errors[name] ?? (name === 'vatId' ? t('address.vatIdHelp') : undefined),
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(name, event.target.value),
    sx: WIDE.has(name) ? { gridColumn: '1 / -1' } : undefined,
  });

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <TextField {...field('organization')} />
      <TextField {...field('line1')} />
      <TextField {...field('line2')} />
      <TextField {...field('zip')} />
      <TextField {...field('city')} />
      <TextField {...field('country')} select slotProps={{ select: { native: true }, inputLabel: { shrink: true } }} sx={{ gridColumn: '1 / -1' }}>
        <option value="">{t('address.chooseCountry')}</option>
        <optgroup label={t('address.euCountries')}>
          {countries.eu.map((country) => <option key={country.code} value={country.code}>{country.name}</option>)}
        </optgroup>
        <optgroup label={t('address.otherCountries')}>
          {countries.other.map((country) => <option key={country.code} value={country.code}>{country.name}</option>)}
        </optgroup>
      </TextField>
      <TextField {...field('vatId')} />
    </Box>
  );
}
