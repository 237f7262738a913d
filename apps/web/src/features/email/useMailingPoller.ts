/**
 * The report poller of spec section 4: while a mailing is triggered or reporting, GET the merge's
 * mailing report every 10 s. A network error shows the offline notice and polling goes on (at once
 * when the browser is back online); a server error is told by snackbar and ends in error. After a
 * reload, a merge of the template that is still mailing is picked up again.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { REPORT_POLL_MS } from '@sheaf/shared';
import { errorDetailsOf } from '../../api/apiError.ts';
import { api, ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateError } from '../../i18n/errors.ts';
import { startPolling } from '../../lib/polling.ts';
import { mailingPollFailed, mailingReportReceived, mailingResumed } from '../wizard/wizardSlice.ts';
import { isMailingActive } from './mailingRules.ts';

export function useMailingPoller(): void {
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { t } = useTranslation(['email', 'errors']);
  const templateId = useAppSelector((state) => state.wizard.template?.id);
  const mergeId = useAppSelector((state) => state.wizard.mailing.mergeId);
  const active = useAppSelector((state) => isMailingActive(state.wizard.mailing.status));
  const status = useAppSelector((state) => state.wizard.mailing.status);

  useEffect(() => {
    if (!templateId || !mergeId || !active) return undefined;
    // The first report is asked for one period after Send: the merge request lands first.
    return startPolling(async (signal) => {
      try {
        const report = await api.call('mailingReport', { params: { id: templateId, mergeId }, signal });
        dispatch(mailingReportReceived({ mergeId, report }));
        return REPORT_POLL_MS;
      } catch (error) {
        if (signal.aborted || (error instanceof ApiError && error.isCancelled)) return null;
        if (error instanceof ApiError && error.isNetwork) {
          dispatch(mailingPollFailed({ mergeId, network: true }));
          return REPORT_POLL_MS;
        }
        notify('error', translateError(error, t));
        dispatch(mailingPollFailed({ mergeId, network: false, error: errorDetailsOf(error) }));
        return null;
      }
    }, REPORT_POLL_MS);
  }, [templateId, mergeId, active, dispatch, notify, t]);

  // An ended mailing changes the email report page and the counter.
  useEffect(() => {
    if (status === 'completed' || status === 'cancelled') void queryClient.invalidateQueries({ queryKey: queryKeys.emailReport.all });
  }, [status, queryClient]);

  // After a reload: a merge of this template whose documents are made but still being mailed.
  useEffect(() => {
    if (!templateId) return undefined;
    const controller = new AbortController();
    api.call('listMerges', { params: { id: templateId }, signal: controller.signal }).then(
      ({ merges }) => {
        const mailing = merges.find((merge) => (merge.mailingStatus === 'queued' || merge.mailingStatus === 'sending') && !merge.madeViaApi && merge.status === 'completed');
        if (mailing && !controller.signal.aborted) dispatch(mailingResumed({ mergeId: mailing.mergeId, templateId }));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [templateId, dispatch]);
}
