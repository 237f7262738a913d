/**
 * Step 4's line before Generate and Send (docs/data-check.md#the-dialog): how many of the rows to
 * generate the last check of this spreadsheet flagged, with the way back to the check. A status
 * (polite), not an alert: it describes the page rather than interrupting it.
 */
import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@mui/material';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import type { SheetBounds } from '../wizard/rowSelection.ts';
import { setDataCheckOpen } from '../wizard/wizardSlice.ts';
import { flaggedInSelection } from './issues.ts';

export default function FlaggedRowsNotice({ sheet }: { sheet: SheetBounds }) {
  const { t } = useTranslation('dataCheck');
  const dispatch = useAppDispatch();
  const result = useAppSelector((state) => state.wizard.dataCheck);
  const selection = useAppSelector((state) => state.wizard.rowSelection);
  const open = (
    <Button color="inherit" size="small" onClick={() => dispatch(setDataCheckOpen(true))}>
      {t(result ? 'step4.open' : 'step4.check')}
    </Button>
  );
  if (!result) return <Alert severity="info" role="status" action={open} data-testid="flagged-rows">{t('step4.notChecked')}</Alert>;
  if (result.flaggedRows.length === 0) return <Alert severity="success" role="status" action={open} data-testid="flagged-rows">{t('step4.clean')}</Alert>;
  const flagged = flaggedInSelection(selection, sheet, result.flaggedRows);
  if (flagged === 0) return <Alert severity="info" role="status" action={open} data-testid="flagged-rows">{t('step4.noneSelected', { count: result.flaggedRows.length })}</Alert>;
  return <Alert severity="warning" role="status" action={open} data-testid="flagged-rows">{t('step4.flagged', { count: flagged })}</Alert>;
}
