/**
 * The report poller of docs/email.md#mailing-status-in-the-wizard: while a mailing is triggered or
 * reporting, GET the merge's mailing report every 10 s. A network error shows the offline notice and
 * polling goes on (at once when the browser is back online); a server error is told by snackbar and ends
 * in error. After a reload, a merge of the template that is still mailing is picked up again.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { REPORT_POLL_MS, type MailingReport } from '@sheaf/shared';
import { errorDetailsOf } from '../../api/apiError.ts';
import { ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateError } from '../../i18n/errors.ts';
import { mailingPollFailed, mailingReportReceived, mailingResumed } from '../wizard/wizardSlice.ts';
import { mailingMergeOf, mergesOfTemplateQuery } from '../wizard/api.ts';
import { mailingReportQuery } from './api.ts';
import { isMailingActive } from './mailingRules.ts';

/** The mailing's last report (tiles, messages), from the query cache; null before the first answer. */
export function useMailingReport(): MailingReport | null {
  const templateId = useAppSelector((state) => state.wizard.templateId ?? '');
  const mergeId = useAppSelector((state) => state.wizard.mailing.mergeId ?? '');
  // A reader only: the poller asks the server.
  const report = useQuery({ ...mailingReportQuery(templateId, mergeId), enabled: false });
  return mergeId ? report.data ?? null : null;
}

/** Waits one period after `key` appears (a new mailing) before saying true. */
function useDelayElapsed(key: string | null, ms: number): boolean {
  const [elapsedFor, setElapsedFor] = useState<string | null>(null);
  useEffect(() => {
    if (key === null) return undefined;
    const timer = setTimeout(() => setElapsedFor(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return key !== null && elapsedFor === key;
}

export function useMailingPoller(): void {
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { t } = useTranslation(['email', 'errors']);
  const templateId = useAppSelector((state) => state.wizard.templateId);
  const mergeId = useAppSelector((state) => state.wizard.mailing.mergeId);
  const active = useAppSelector((state) => isMailingActive(state.wizard.mailing.status));
  const status = useAppSelector((state) => state.wizard.mailing.status);

  // The first report is asked for one period after Send: the merge request lands first.
  const following = templateId && mergeId && active ? `${templateId}/${mergeId}` : null;
  const waited = useDelayElapsed(following, REPORT_POLL_MS);
  const poll = useQuery({ ...mailingReportQuery(templateId ?? '', mergeId ?? ''), enabled: following !== null && waited });
  const { data, dataUpdatedAt, error, failureReason, fetchStatus } = poll;

  // Every answer counts (three cancelled reports in a row end the mailing), equal or not.
  useEffect(() => {
    if (data && mergeId) dispatch(mailingReportReceived({ mergeId, report: data }));
  }, [data, dataUpdatedAt, mergeId, dispatch]);

  // Offline: the notice shows and the poll goes on; the next answer clears it.
  const offline = fetchStatus === 'paused' || (failureReason instanceof ApiError && failureReason.isNetwork);
  useEffect(() => {
    if (offline && mergeId) dispatch(mailingPollFailed({ mergeId, network: true }));
  }, [offline, mergeId, dispatch]);

  useEffect(() => {
    if (!error || !mergeId || (error instanceof ApiError && (error.isNetwork || error.isCancelled))) return;
    notify('error', translateError(error, t));
    dispatch(mailingPollFailed({ mergeId, network: false, error: errorDetailsOf(error) }));
  }, [error, mergeId, dispatch, notify, t]);

  // An ended mailing changes the email report page and the counter.
  useEffect(() => {
    if (status === 'completed' || status === 'cancelled') void queryClient.invalidateQueries({ queryKey: queryKeys.emailReport.all });
  }, [status, queryClient]);

  // After a reload: a merge of this template whose documents are made but still being mailed (only an
  // answer of this visit counts: a mailing listed earlier may have ended since).
  const merges = useQuery({ ...mergesOfTemplateQuery(templateId ?? ''), enabled: Boolean(templateId) });
  const stillMailing = merges.isFetchedAfterMount && merges.data ? mailingMergeOf(merges.data) : null;
  useEffect(() => {
    if (stillMailing && templateId) dispatch(mailingResumed({ mergeId: stillMailing.mergeId, templateId }));
  }, [stillMailing, templateId, dispatch]);
}
