/**
 * Loads the template of /wizard/:templateId into the wizard state. 'new' starts empty; an unknown
 * template sends the user home with an error snackbar; leaving the page clears the wizard.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client.ts';
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
  // Just created by the upload on /wizard/new, or already loaded: nothing to ask.
  const inState = useAppSelector((state) => state.wizard.template?.id === templateId);
  const detail = useQuery({ ...templateDetailQuery(templateId), enabled: !isNew && !inState });
  const { data, error, refetch } = detail;

  useEffect(() => {
    if (isNew) dispatch(wizardLeft());
  }, [isNew, dispatch]);

  useEffect(() => {
    if (data) dispatch(templateLoaded(data));
  }, [data, dispatch]);

  useEffect(() => {
    if (!isGone(error)) return;
    notify('error', translateError(error, t));
    void navigate('/', { replace: true });
  }, [error, notify, navigate, t]);

  // After a reload, a merge started from the wizard may still run: its progress is picked up again.
  const unlocked = useAppSelector((state) => state.wizard.template?.id === templateId && !state.wizard.template.isEncrypted);
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
      setTimeout(() => mountedPages === 0 && dispatch(wizardLeft()), 0);
    };
  }, [dispatch]);

  if (isNew || inState) return { state: 'ready' };
  if (error && !isGone(error) && !(error instanceof ApiError && error.isCancelled)) {
    return { state: 'failed', message: translateError(error, t), retry: () => void refetch() };
  }
  return { state: 'loading' };
}
