/**
 * Credits balance of docs/plans.md#credits: available, to be used, new balance, or unlimited, for the
 * rows about to be generated, with the plan and the renewal date of the quota.
 */
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Skeleton, Table, TableBody, TableCell, TableContainer, TableRow, Typography } from '@mui/material';
import { translateError } from '../../i18n/errors.ts';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import { creditsQuery } from './api.ts';

export function useCredits(toBeUsed: number) {
  return useQuery(creditsQuery(toBeUsed));
}

export default function CreditsTable({ toBeUsed }: { toBeUsed: number }) {
  const { t, i18n } = useTranslation(['wizard', 'errors']);
  const credits = useCredits(toBeUsed);
  const me = useCurrentUser();
  const number = (value: number) => value.toLocaleString(i18n.language);
  if (credits.isError) return <Alert severity="error">{translateError(credits.error, t)}</Alert>;
  if (!credits.data) return <Skeleton variant="rectangular" height={120} />;
  const { available, newBalance, unlimited, renewsAt } = credits.data;
  const unlimitedText = t('credits.unlimited');
  return (
    <TableContainer>
      <Typography variant="subtitle1" component="h2">{t('credits.title')}</Typography>
      {me.data && (
        <Typography variant="body2" color="text.secondary">
          {renewsAt
            ? t('credits.planRenews', { plan: me.data.billingPlan, date: new Date(renewsAt).toLocaleDateString(i18n.language) })
            : t('credits.plan', { plan: me.data.billingPlan })}
        </Typography>
      )}
      <Table size="small" aria-label={t('credits.title')} sx={{ maxWidth: 420 }}>
        <TableBody>
          <TableRow>
            <TableCell component="th" scope="row">{t('credits.available')}</TableCell>
            <TableCell align="right">{unlimited || available === null ? unlimitedText : number(available)}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th" scope="row">{t('credits.toBeUsed')}</TableCell>
            <TableCell align="right">{number(toBeUsed)}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>{t('credits.newBalance')}</TableCell>
            <TableCell align="right" sx={{ fontWeight: 600, color: newBalance !== null && newBalance < 0 ? 'error.main' : undefined }}>
              {unlimited || newBalance === null ? unlimitedText : number(newBalance)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </TableContainer>
  );
}
