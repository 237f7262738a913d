/**
 * Generating (spec sections 4 and 7): start a merge with a client-made id, poll it every second for
 * the progress view, keep polling with backoff while offline (the merge goes on on the server), and
 * cancel it (retried while the server does not know the merge yet). When a merge ends, the user's
 * counter and the template list are refreshed.
 */
import { useCallback, useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { MergeRequest, TemplateOutputSettings } from '@sheaf/shared';
import { errorDetailsOf } from '../../api/apiError.ts';
import { api, ApiError } from '../../api/client.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { invalidateAfterMerge } from '../../api/routeQuery.ts';
import { useNotify } from '../../app/snackbar.tsx';
import type { RootState } from '../../app/store.ts';
import { translateError } from '../../i18n/errors.ts';
import { startPolling } from '../../lib/polling.ts';
import { buildMergeRequest, newMergeId, POLL_INTERVAL_MS, pollDelay, retryWhile } from './mergeRules.ts';
import { isMergeRunning } from './stepRules.ts';
import { mergeCancelled, mergeFailed, mergeOffline, mergeOnline, mergeStarted, mergeUpdated, sheetBounds } from './wizardSlice.ts';

function useMergeEnded(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    invalidateAfterMerge(queryClient);
  }, [queryClient]);
}

/** Polls the running merge of the wizard; mounted once by the wizard page. */
export function useMergePoller(): void {
  const dispatch = useAppDispatch();
  const ended = useMergeEnded();
  const templateId = useAppSelector((state) => state.wizard.template?.id);
  const mergeId = useAppSelector((state) => state.wizard.mergeId);
  const running = useAppSelector((state) => isMergeRunning(state.wizard.mailMergeStatus));

  useEffect(() => {
    if (!templateId || !mergeId || !running) return undefined;
    let failures = 0;
    return startPolling(async (signal) => {
      try {
        const merge = await api.call('getMerge', { params: { id: templateId, mergeId }, signal });
        failures = 0;
        dispatch(mergeOnline());
        dispatch(mergeUpdated(merge));
        if (merge.status === 'queued' || merge.status === 'generating') return POLL_INTERVAL_MS;
        ended();
        return null;
      } catch (error) {
        if (signal.aborted || (error instanceof ApiError && error.isCancelled)) return null;
        if (error instanceof ApiError && (error.isNetwork || error.status >= 500)) {
          // Offline (or the server briefly unwell): the merge goes on; ask again, backing off.
          failures++;
          if (error.isNetwork) dispatch(mergeOffline());
          return pollDelay(failures);
        }
        dispatch(mergeFailed(errorDetailsOf(error)));
        ended();
        return null;
      }
    }, POLL_INTERVAL_MS);
  }, [templateId, mergeId, running, dispatch, ended]);
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
  const ended = useMergeEnded();
  const { t } = useTranslation(['wizard', 'errors']);
  const [cancelling, setCancelling] = useState(false);

  const start = useCallback(async (output: TemplateOutputSettings, creditLimit?: number, email?: MergeRequest['email']) => {
    const { template, excel, rowSelection, rowsToGenerateCount } = store.getState().wizard;
    const sheet = sheetBounds(excel);
    if (!template || !sheet) return;
    const mergeId = newMergeId();
    const limitToCredits = creditLimit !== undefined;
    dispatch(mergeStarted({ mergeId, expectedTotal: limitToCredits ? Math.min(creditLimit, rowsToGenerateCount) : rowsToGenerateCount }));
    try {
      const body = buildMergeRequest({ mergeId, customName: template.customName, output, selection: rowSelection, sheet, limitToCredits });
      const merge = await api.call('startMerge', { params: { id: template.id }, body: { ...body, templateId: template.id, ...(email ? { email } : {}) } });
      dispatch(mergeUpdated(merge));
      if (merge.status !== 'queued' && merge.status !== 'generating') ended();
    } catch (error) {
      dispatch(mergeFailed({ ...errorDetailsOf(error), offline: error instanceof ApiError && error.isNetwork }));
    }
  }, [dispatch, store, ended]);

  const cancel = useCallback(async () => {
    const { template, mergeId } = store.getState().wizard;
    if (!template || !mergeId) return;
    setCancelling(true);
    try {
      const merge = await retryWhile(
        () => api.call('cancelMerge', { params: { id: template.id, mergeId } }),
        (error) => error instanceof ApiError && error.code === 'merge/not-found',
      );
      dispatch(mergeUpdated(merge));
      // A cancel the server accepted ends the merge for the user, even if its last batch still finishes.
      dispatch(mergeCancelled());
      ended();
      notify('success', t('cancelMerge.success'));
    } catch (error) {
      notify('error', `${t('cancelMerge.failure')} ${translateError(error, t)}`);
    } finally {
      setCancelling(false);
    }
  }, [dispatch, store, notify, t, ended]);

  return { start, cancel, cancelling };
}
