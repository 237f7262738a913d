/** The plan features table (docs/plans.md#plans), every cell read from GET /v1/plans. */
import type { ReactNode } from 'react';
import { Box, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import RemoveIcon from '@mui/icons-material/Remove';
import { useTranslation } from 'react-i18next';
import type { PlanInfo } from '@sheaf/shared';

type Row = { key: string; cell: (plan: PlanInfo) => ReactNode };

export default function FeaturesTable({ plans }: { plans: readonly PlanInfo[] }) {
  const { t, i18n } = useTranslation('billing');
  const number = new Intl.NumberFormat(i18n.language);
  const yesNo = (value: boolean) => (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }}>
      {value ? <CheckIcon fontSize="small" color="success" aria-hidden /> : <RemoveIcon fontSize="small" sx={{ color: 'text.secondary' }} aria-hidden />}
      <Box component="span" sx={visuallyHidden}>{value ? t('table.included') : t('table.notIncluded')}</Box>
    </Box>
  );
  const rows: Row[] = [
    { key: 'documents', cell: (plan) => (plan.documentsPerMonth === null ? t('table.unlimited') : number.format(plan.documentsPerMonth)) },
    { key: 'users', cell: (plan) => number.format(plan.users) },
    { key: 'noWatermark', cell: (plan) => yesNo(!plan.watermark) },
    { key: 'sendEmail', cell: (plan) => yesNo(plan.sendEmail) },
    { key: 'dkim', cell: (plan) => yesNo(plan.dkim) },
    { key: 'smtp', cell: (plan) => yesNo(plan.smtp) },
    { key: 'individualFileNames', cell: (plan) => yesNo(plan.individualFileNames) },
    { key: 'reusableTemplates', cell: (plan) => yesNo(plan.reusableTemplates) },
    { key: 'support', cell: (plan) => t(`table.supportLevel.${plan.support}`) },
  ];
  return (
    <Box component="section" aria-labelledby="features-title" sx={{ mt: 5 }}>
      <Typography id="features-title" variant="h5" component="h2" sx={{ mb: 2 }}>{t('table.title')}</Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small">
          <caption style={visuallyHidden}>{t('table.caption')}</caption>
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">{t('table.feature')}</TableCell>
              {plans.map((plan) => (
                <TableCell key={plan.plan} component="th" scope="col" align="center" sx={{ fontWeight: 600 }}>{t(`plan.names.${plan.plan}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key}>
                <TableCell component="th" scope="row">{t(`table.rows.${row.key}`)}</TableCell>
                {plans.map((plan) => <TableCell key={plan.plan} align="center">{row.cell(plan)}</TableCell>)}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

/** Read by screen readers, not shown. Lengths as strings: in `sx`, 1 would mean 100%. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
