/**
 * Loads the template of /wizard/:templateId into the wizard state. 'new' starts empty; an unknown
 * template sends the user home with an error snackbar; leaving the page clears the wizard.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateError } from '../../i18n/errors.ts';
import { mergeAnswered, mergesOfTemplateQuery, runningMergeOf, templateDetailQuery } from './api.ts';
import { mergeResumed, templateLoaded, wizardLeft } from './wizardSlice.ts';

let mountedPages = 0;

export type TemplateLoad = { state: 'ready' } | { state: 'loading' } | { state: 'failed'; message: string; retry: () => void };

/** Answers that mean "no such template for you": the user goes home and is told why. */
const isGone = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400 || error.status === 403);

export function useWizardTemplate(templateId: string): TemplateLoad {
  const { t } = useTranslation(['wizard', 'errors']);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const isNew = templateId === 'new';
  // The details live in the query cache; just uploaded on /wizard/new, they are there already.
  const detail = useQuery({ ...templateDetailQuery(templateId), enabled: !isNew });
  const { data, error, refetch } = detail;
  const taken = useAppSelector((state) => state.wizard.templateId === templateId);

  useEffect(() => {
    if (isNew) dispatch(wizardLeft());
  }, [isNew, dispatch]);

  // The wizard takes the template once; later copies bring their own templateLoaded (templateReceived).
  useEffect(() => {
    if (data && !taken) dispatch(templateLoaded(data));
  }, [data, taken, dispatch]);

  useEffect(() => {
    if (!isGone(error)) return;
    notify('error', translateError(error, t));
    void navigate('/', { replace: true });
  }, [error, notify, navigate, t]);

  // After a reload, a merge started from the wizard may still run: its progress is picked up again.
  const unlocked = taken && data?.isEncrypted === false;
  const merges = useQuery({ ...mergesOfTemplateQuery(templateId), enabled: !isNew && unlocked });
  // Only an answer of this visit counts: a merge listed earlier as running may have ended since.
  const running = merges.isFetchedAfterMount && merges.data ? runningMergeOf(merges.data) : null;
  useEffect(() => {
    if (!running) return;
    mergeAnswered(queryClient, running);
    dispatch(mergeResumed(running));
  }, [running, queryClient, dispatch]);

  // Leaving the wizard: the navbar stops showing its crumbs and nothing stale is shown next time.
  // Cleared a tick later and only if no wizard page took over: /wizard/new becomes /wizard/<id>
  // after the upload, and the page may be mounted afresh for the new address.
  useEffect(() => {
    mountedPages++;
    return () => {
      mountedPages--;
      setTimeout(() => {
        if (mountedPages > 0) return;
        dispatch(wizardLeft());
        // Asked afresh next time: the wizard kept these current only while open.
        queryClient.removeQueries({ queryKey: queryKeys.templates.details() });
      }, 0);
    };
  }, [dispatch, queryClient]);

  if (isNew || (taken && data !== undefined)) return { state: 'ready' };
  if (error && !isGone(error) && !(error instanceof ApiError && error.isCancelled)) {
    return { state: 'failed', message: translateError(error, t), retry: () => void refetch() };
  }
  return { state: 'loading' };
}
