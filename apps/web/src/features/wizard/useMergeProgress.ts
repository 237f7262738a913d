/**
 * Generating (docs/merging.md#progress-and-cancel): start a merge with a client-made id, poll it every
 * second for the progress view, keep polling with backoff while offline (the merge goes on on the
 * server), and cancel it (retried while the server does not know the merge yet). When a merge ends, the
 * user's counter and the template list are refreshed.
 */
import { useCallback, useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Merge, MergeRequest, TemplateOutputSettings } from '@sheaf/shared';
import { errorDetailsOf } from '../../api/apiError.ts';
import { api, ApiError } from '../../api/client.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { invalidateAfterMerge } from '../../api/routeQuery.ts';
import { useNotify } from '../../app/snackbar.tsx';
import type { RootState } from '../../app/store.ts';
import { translateError } from '../../i18n/errors.ts';
import { isTransientError, mergeAnswered, mergeQuery } from './api.ts';
import { wizardDetailNow } from './templateDetail.ts';
import { buildMergeRequest, newMergeId, retryWhile } from './mergeRules.ts';
import { isMergeRunning } from './stepRules.ts';
import { mergeCancelled, mergeFailed, mergeOffline, mergeOnline, mergeStarted, mergeUpdated, sheetBounds } from './wizardSlice.ts';

/**
 * Polls the merge the wizard follows, through its query (features/wizard/api.ts); mounted once by the
 * wizard page. Each answer moves the status view on; the answers themselves stay in the query cache.
 */
export function useMergePoller(): void {
  const dispatch = useAppDispatch();
  const templateId = useAppSelector((state) => state.wizard.templateId ?? '');
  const mergeId = useAppSelector((state) => state.wizard.mergeId ?? '');
  const running = useAppSelector((state) => isMergeRunning(state.wizard.mailMergeStatus));
  // Polled once the server has answered the start (or the merge was found running after a reload):
  // asked earlier, the server would not know the merge yet.
  const known = useFollowedMerge() !== null;
  const poll = useQuery({ ...mergeQuery(templateId, mergeId), enabled: known && running });
  const { data, dataUpdatedAt, error, failureReason, fetchStatus } = poll;

  useEffect(() => {
    if (data) dispatch(mergeUpdated(data));
  }, [data, dataUpdatedAt, dispatch]);

  // Offline (the browser says so, or the calls fail on the network): the merge goes on on the server.
  const offline = fetchStatus === 'paused' || (failureReason instanceof ApiError && failureReason.isNetwork);
  useEffect(() => {
    dispatch(offline ? mergeOffline() : mergeOnline());
  }, [offline, dispatch]);

  useEffect(() => {
    if (error && !isTransientError(error) && !(error instanceof ApiError && error.isCancelled)) dispatch(mergeFailed(errorDetailsOf(error)));
  }, [error, dispatch]);
}

/** The merge the wizard follows as last answered (progress, file, issues); null before the first answer. */
export function useFollowedMerge(mergeIdOf: (state: RootState) => string | null = (state) => state.wizard.mergeId): Merge | null {
  const templateId = useAppSelector((state) => state.wizard.templateId ?? '');
  const mergeId = useAppSelector(mergeIdOf) ?? '';
  // A reader only: the poller above asks the server.
  const merge = useQuery({ ...mergeQuery(templateId, mergeId), enabled: false });
  return mergeId ? merge.data ?? null : null;
}

export interface MergeActions {
  /**
   * Starts generating with the given output settings; resolves when the server accepted (or refused)
   * it. `creditLimit`: make only as many documents as these remaining credits cover; `email`: send
   * the documents with the template's saved email settings.
   */
  start: (output: TemplateOutputSettings, creditLimit?: number, email?: MergeRequest['email']) => Promise<void>;
  cancel: () => Promise<void>;
  cancelling: boolean;
}

export function useMergeActions(): MergeActions {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { t } = useTranslation(['wizard', 'errors']);
  const [cancelling, setCancelling] = useState(false);

  const start = useCallback(async (output: TemplateOutputSettings, creditLimit?: number, email?: MergeRequest['email']) => {
    const { templateId, rowSelection, rowsToGenerateCount } = store.getState().wizard;
    const template = wizardDetailNow(templateId, queryClient);
    const sheet = sheetBounds(template?.excel ?? null);
    if (!template || !sheet) return;
    const mergeId = newMergeId();
    const limitToCredits = creditLimit !== undefined;
    dispatch(mergeStarted({ mergeId, expectedTotal: limitToCredits ? Math.min(creditLimit, rowsToGenerateCount) : rowsToGenerateCount }));
    try {
      const body = buildMergeRequest({ mergeId, customName: template.customName, output, selection: rowSelection, sheet, limitToCredits });
      const merge = await api.call('startMerge', { params: { id: template.id }, body: { ...body, templateId: template.id, ...(email ? { email } : {}) } });
      mergeAnswered(queryClient, merge);
      dispatch(mergeUpdated(merge));
    } catch (error) {
      dispatch(mergeFailed({ ...errorDetailsOf(error), offline: error instanceof ApiError && error.isNetwork }));
    }
  }, [dispatch, store, queryClient]);

  const cancel = useCallback(async () => {
    const { templateId, mergeId } = store.getState().wizard;
    if (!templateId || !mergeId) return;
    setCancelling(true);
    try {
      const merge = await retryWhile(
        () => api.call('cancelMerge', { params: { id: templateId, mergeId } }),
        (error) => error instanceof ApiError && error.code === 'merge/not-found',
      );
      mergeAnswered(queryClient, merge);
      dispatch(mergeUpdated(merge));
      // A cancel the server accepted ends the merge for the user, even if its last batch still finishes.
      dispatch(mergeCancelled());
      invalidateAfterMerge(queryClient);
      notify('success', t('cancelMerge.success'));
    } catch (error) {
      notify('error', `${t('cancelMerge.failure')} ${translateError(error, t)}`);
    } finally {
      setCancelling(false);
    }
  }, [dispatch, store, queryClient, notify, t]);

  return { start, cancel, cancelling };
}
