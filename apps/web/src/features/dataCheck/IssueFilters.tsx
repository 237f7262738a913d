/** The filters of the issues grid: by column and by kind, each option with its number of issues. */
import { useTranslation } from 'react-i18next';
import { MenuItem, Stack, TextField } from '@mui/material';
import type { DataIssueKind } from '@sheaf/shared';
import type { IssueFilter, IssueSummary } from './issues.ts';

/** "Every column" / "every kind" (a heading may be any text, but never absent: null is the filter's own "all"). */
const ALL = '';
const SLOT_PROPS = { inputLabel: { shrink: true }, select: { displayEmpty: true } } as const;

interface Props {
  filter: IssueFilter;
  summary: IssueSummary;
  onChange: (filter: IssueFilter) => void;
}

export default function IssueFilters({ filter, summary, onChange }: Props) {
  const { t } = useTranslation('dataCheck');
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField
        select
        id="data-check-column"
        size="small"
        label={t('filter.column')}
        value={filter.column === null ? ALL : `=${filter.column}`}
        onChange={(event) => onChange({ ...filter, column: event.target.value === ALL ? null : event.target.value.slice(1) })}
        slotProps={SLOT_PROPS}
        sx={{ minWidth: 240 }}
      >
        <MenuItem value={ALL}>{t('filter.allColumns')}</MenuItem>
        {summary.columns.map(({ name, count }) => (
          // '=' keeps a column named '' apart from "all columns".
          <MenuItem key={name} value={`=${name}`}>{t('filter.option', { name: name === '' ? t('filter.noColumn') : name, count })}</MenuItem>
        ))}
      </TextField>
      <TextField
        select
        id="data-check-kind"
        size="small"
        label={t('filter.kind')}
        value={filter.kind ?? ALL}
        onChange={(event) => onChange({ ...filter, kind: event.target.value === ALL ? null : (event.target.value as DataIssueKind) })}
        slotProps={SLOT_PROPS}
        sx={{ minWidth: 240 }}
      >
        <MenuItem value={ALL}>{t('filter.allKinds')}</MenuItem>
        {summary.kinds.map(({ kind, count }) => (
          <MenuItem key={kind} value={kind}>{t('filter.option', { name: t(`kind.${kind}`), count })}</MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
