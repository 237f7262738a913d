/**
 * The settings of a placeholder's type: number format, date format, text wrapping and shrinking, QR
 * error correction. Unset settings show the engine's defaults (the zod schema's).
 */
import { Box, FormControl, FormControlLabel, InputLabel, MenuItem, Select, Switch } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DATE_PRESETS, DateFormatSchema, NumberFormatSchema, type DateFormat, type NumberFormat, type Placeholder } from '@sheaf/shared';
import { TextDraftField, type ApplyEdit } from './fields.tsx';

const LOCALES = ['en-US', 'en-GB', 'de-DE', 'de-CH', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pt-BR', 'pl-PL', 'sv-SE', 'ja-JP', 'zh-CN'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'CNY', 'CAD', 'AUD', 'SEK', 'PLN', 'BRL'];

interface TypeSettingsFieldsProps {
  first: Placeholder;
  apply: ApplyEdit;
}

function LabelledSelect({ id, label, value, options, onChange }: { id: string; label: string; value: string; options: { value: string; label: string }[]; onChange: (value: string) => void }) {
  const all = options.some((option) => option.value === value) ? options : [...options, { value, label: value }];
  return (
    <FormControl size="small" fullWidth>
      <InputLabel id={id}>{label}</InputLabel>
      <Select labelId={id} label={label} value={value} onChange={(event) => onChange(event.target.value)}>
        {all.map((option) => (
          <MenuItem key={option.value} value={option.value}>{option.label}</MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

const plain = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

function NumberSettings({ first, apply }: TypeSettingsFieldsProps) {
  const { t } = useTranslation('editor');
  const format = NumberFormatSchema.parse(first.typeSettings.numberFormat ?? {});
  const set = (field: string, patch: Partial<NumberFormat>) =>
    apply(`numberFormat.${field}`, (item) => ({ typeSettings: { ...item.typeSettings, numberFormat: { ...NumberFormatSchema.parse(item.typeSettings.numberFormat ?? {}), ...patch } } }));
  return (
    <>
      <LabelledSelect
        id="editor-number-style"
        label={t('number.style')}
        value={format.style}
        options={(['decimal', 'currency', 'percent'] as const).map((value) => ({ value, label: t(`number.styles.${value}`) }))}
        onChange={(style) => set('style', { style: style as NumberFormat['style'] })}
      />
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <LabelledSelect
          id="editor-number-decimals"
          label={t('number.decimals')}
          value={format.decimals === undefined ? 'auto' : String(format.decimals)}
          options={[{ value: 'auto', label: t('number.decimalsAuto') }, ...plain(Array.from({ length: 11 }, (_, n) => String(n)))]}
          onChange={(value) => set('decimals', { decimals: value === 'auto' ? undefined : Number(value) })}
        />
        <FormControlLabel
          control={<Switch checked={format.thousandsSeparator} onChange={(event) => set('thousands', { thousandsSeparator: event.target.checked })} />}
          label={t('number.thousands')}
        />
      </Box>
      <LabelledSelect id="editor-number-locale" label={t('number.locale')} value={format.locale} options={plain(LOCALES)} onChange={(locale) => set('locale', { locale })} />
      {format.style === 'currency' ? (
        <LabelledSelect id="editor-number-currency" label={t('number.currency')} value={format.currency} options={plain(CURRENCIES)} onChange={(currency) => set('currency', { currency })} />
      ) : null}
    </>
  );
}

function DateSettings({ first, apply }: TypeSettingsFieldsProps) {
  const { t } = useTranslation('editor');
  const format = DateFormatSchema.parse(first.typeSettings.dateFormat ?? {});
  const set = (field: string, patch: Partial<DateFormat>) =>
    apply(`dateFormat.${field}`, (item) => ({ typeSettings: { ...item.typeSettings, dateFormat: { ...DateFormatSchema.parse(item.typeSettings.dateFormat ?? {}), ...patch } } }));
  return (
    <>
      <LabelledSelect
        id="editor-date-format"
        label={t('date.format')}
        value={format.format}
        options={[...plain(DATE_PRESETS), { value: 'custom', label: t('date.custom') }]}
        onChange={(value) => set('format', { format: value as DateFormat['format'], ...(value === 'custom' && !format.customFormat ? { customFormat: 'YYYY-MM-DD' } : {}) })}
      />
      {format.format === 'custom' ? (
        <TextDraftField
          label={t('date.customFormat')}
          helperText={t('date.customHelp')}
          value={format.customFormat ?? ''}
          isValid={(text) => text.trim().length > 0 && text.length <= 100}
          onCommit={(customFormat) => set('customFormat', { customFormat })}
        />
      ) : null}
      <LabelledSelect id="editor-date-locale" label={t('date.locale')} value={format.locale} options={plain(LOCALES)} onChange={(locale) => set('locale', { locale })} />
    </>
  );
}

export default function TypeSettingsFields({ first, apply }: TypeSettingsFieldsProps) {
  const { t } = useTranslation('editor');
  const settings = first.typeSettings;
  switch (first.type) {
    case 'number':
      return <NumberSettings first={first} apply={apply} />;
    case 'date':
      return <DateSettings first={first} apply={apply} />;
    case 'text':
    case 'multiple':
      return (
        <Box sx={{ display: 'flex', flexDirection: 'column' }}>
          <FormControlLabel
            control={<Switch checked={settings.wrap !== false} onChange={(event) => apply('wrap', (item) => ({ typeSettings: { ...item.typeSettings, wrap: event.target.checked } }))} />}
            label={t('text.wrap')}
          />
          <FormControlLabel
            control={<Switch checked={settings.shrinkToFit === true} onChange={(event) => apply('shrinkToFit', (item) => ({ typeSettings: { ...item.typeSettings, shrinkToFit: event.target.checked } }))} />}
            label={t('text.shrinkToFit')}
          />
        </Box>
      );
    case 'qrcode':
      return (
        <LabelledSelect
          id="editor-qr-level"
          label={t('qrcode.errorCorrection')}
          value={settings.errorCorrection ?? 'M'}
          options={(['L', 'M', 'Q', 'H'] as const).map((value) => ({ value, label: t(`qrcode.levels.${value}`) }))}
          onChange={(level) => apply('errorCorrection', (item) => ({ typeSettings: { ...item.typeSettings, errorCorrection: level as 'L' | 'M' | 'Q' | 'H' } }))}
        />
      );
    default:
      return null;
  }
}
