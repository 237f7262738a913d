/**
 * Loads the template of /wizard/:templateId into the wizard state. 'new' starts empty; an unknown
 * template sends the user home with an error snackbar; leaving the page clears the wizard.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { useQueryClient } from '@tanstack/react-query';
import type { Merge } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import type { RootState } from '../../app/store.ts';
import { translateError } from '../../i18n/errors.ts';
import { mergeAnswered } from './api.ts';
import { mergeResumed, templateLoaded, wizardLeft } from './wizardSlice.ts';

/** After a reload, a merge started from the wizard may still run: pick its progress up again. */
async function findRunningMerge(templateId: string, signal: AbortSignal): Promise<Merge | null> {
  try {
    const { merges } = await api.call('listMerges', { params: { id: templateId }, signal });
    return merges.find((merge) => (merge.status === 'queued' || merge.status === 'generating') && !merge.madeViaApi) ?? null;
  } catch {
    return null;
  }
}

let mountedPages = 0;

export type TemplateLoad = { state: 'ready' } | { state: 'loading' } | { state: 'failed'; message: string; retry: () => void };

export function useWizardTemplate(templateId: string): TemplateLoad {
  const { t } = useTranslation(['wizard', 'errors']);
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [load, setLoad] = useState<TemplateLoad>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  const resumeRunningMerge = useCallback(async (templateId: string, signal: AbortSignal) => {
    const running = await findRunningMerge(templateId, signal);
    if (!running || signal.aborted) return;
    mergeAnswered(queryClient, running);
    dispatch(mergeResumed(running));
  }, [dispatch, queryClient]);

  useEffect(() => {
    if (templateId === 'new') {
      dispatch(wizardLeft());
      setLoad({ state: 'ready' });
      return;
    }
    // Just created by the upload on /wizard/new: already in the state.
    if (store.getState().wizard.template?.id === templateId) {
      setLoad({ state: 'ready' });
      return;
    }
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    api.call('getTemplate', { params: { id: templateId }, signal: controller.signal }).then(
      (detail) => {
        dispatch(templateLoaded(detail));
        setLoad({ state: 'ready' });
        if (!detail.isEncrypted) void resumeRunningMerge(templateId, controller.signal);
      },
      (error: unknown) => {
        if (controller.signal.aborted || (error instanceof ApiError && error.isCancelled)) return;
        if (error instanceof ApiError && (error.status === 404 || error.status === 400 || error.status === 403)) {
          notify('error', translateError(error, t));
          navigate('/', { replace: true });
          return;
        }
        setLoad({ state: 'failed', message: translateError(error, t), retry });
      },
    );
    return () => controller.abort();
  }, [templateId, attempt, dispatch, store, navigate, notify, t, retry, resumeRunningMerge]);

  // Leaving the wizard: the navbar stops showing its crumbs and nothing stale is shown next time.
  // Cleared a tick later and only if no wizard page took over: /wizard/new becomes /wizard/<id>
  // after the upload, and the page may be mounted afresh for the new address.
  useEffect(() => {
    mountedPages++;
    return () => {
      mountedPages--;
      setTimeout(() => mountedPages === 0 && dispatch(wizardLeft()), 0);
    };
  }, [dispatch]);

  return load;
}
