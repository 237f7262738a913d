/**
 * Rows to generate: all, an Excel-numbered range, or specific rows "1, 3, 5-12" (malformed items are
 * dropped, docs/spreadsheets.md#row-selection). The number of documents updates as the user types.
 */
import { useTranslation } from 'react-i18next';
import { FormControl, FormControlLabel, Radio, RadioGroup, Stack, TextField, Typography } from '@mui/material';
import type { RowSelectionState, RowsMode, SheetBounds } from './rowSelection.ts';

interface RowsSelectionProps {
  selection: RowSelectionState;
  sheet: SheetBounds;
  count: number;
  onChange: (patch: Partial<RowSelectionState>) => void;
  disabled?: boolean;
}

function parseRowNumber(text: string): number | null {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value >= 1 ? value : null;
}

export default function RowsSelection({ selection, sheet, count, onChange, disabled = false }: RowsSelectionProps) {
  const { t, i18n } = useTranslation('wizard');
  return (
    <Stack spacing={1}>
      <FormControl disabled={disabled}>
        {/* A section heading like Output, File name and Password protection beside it; it names the radio group. */}
        <Typography variant="subtitle1" component="h2" id="wizard-rows-mode">{t('rows.title')}</Typography>
        <RadioGroup aria-labelledby="wizard-rows-mode" value={selection.mode} onChange={(event) => onChange({ mode: event.target.value as RowsMode })}>
          <FormControlLabel value="all" control={<Radio />} label={t('rows.all', { first: sheet.firstRow, last: sheet.lastRow })} />
          <FormControlLabel value="range" control={<Radio />} label={t('rows.range')} />
          <FormControlLabel value="specific" control={<Radio />} label={t('rows.specific')} />
        </RadioGroup>
      </FormControl>
      {selection.mode === 'range' && (
        <Stack direction="row" spacing={2}>
          <TextField
            type="number"
            size="small"
            label={t('rows.from')}
            value={selection.startRow ?? ''}
            placeholder={String(sheet.firstRow)}
            onChange={(event) => onChange({ startRow: parseRowNumber(event.target.value) })}
            slotProps={{ htmlInput: { min: sheet.firstRow, max: sheet.lastRow } }}
            disabled={disabled}
          />
          <TextField
            type="number"
            size="small"
            label={t('rows.to')}
            value={selection.endRow ?? ''}
            placeholder={String(sheet.lastRow)}
            onChange={(event) => onChange({ endRow: parseRowNumber(event.target.value) })}
            slotProps={{ htmlInput: { min: sheet.firstRow, max: sheet.lastRow } }}
            disabled={disabled}
          />
        </Stack>
      )}
      {selection.mode === 'specific' && (
        <TextField
          size="small"
          label={t('rows.list')}
          value={selection.specificRows}
          onChange={(event) => onChange({ specificRows: event.target.value })}
          helperText={t('rows.listHint', { first: sheet.firstRow, last: sheet.lastRow })}
          disabled={disabled}
          sx={{ maxWidth: 420 }}
        />
      )}
      <Typography data-testid="rows-to-generate" sx={{ fontWeight: 600 }}>
        {t('rows.count', { count, formatted: count.toLocaleString(i18n.language) })}
      </Typography>
    </Stack>
  );
}
