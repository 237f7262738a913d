/** Small hooks the wizard's parts share. */
import { useCallback, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAX_UPLOAD_BYTES } from '@sheaf/shared';
import { configQuery } from '../../api/routeQuery.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateCode } from '../../i18n/errors.ts';
import { changeStep, type StepOutcome } from './stepNavigation.ts';

/** The upload limit the server announces (docs/limits.md#files-and-uploads). */
export function useMaxUploadBytes(): number {
  const config = useQuery(configQuery());
  return config.data?.maxUploadBytes ?? MAX_UPLOAD_BYTES;
}

/** Changes the wizard step by its rules and tells the user why when it cannot. */
export function useRunStep(): (to: number) => Promise<StepOutcome> {
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const { t } = useTranslation(['wizard', 'errors']);
  return useCallback(async (to: number) => {
    const outcome = await dispatch(changeStep(to));
    if (outcome.kind === 'blocked' && outcome.reason) notify('error', translateCode(outcome.reason, undefined, t));
    return outcome;
  }, [dispatch, notify, t]);
}

const storageListeners = new Set<() => void>();
/** Used when localStorage is unavailable (private mode): the choice lasts until the page reloads. */
const memoryFlags = new Map<string, boolean>();

function readFlag(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'true';
  } catch {
    return memoryFlags.get(key) ?? false;
  }
}

/** A checkbox remembered in localStorage (the step 3 upload options). */
export function useStoredFlag(key: string): [boolean, (value: boolean) => void] {
  const value = useSyncExternalStore(
    (listener) => {
      storageListeners.add(listener);
      return () => storageListeners.delete(listener);
    },
    () => readFlag(key),
    () => false,
  );
  const set = useCallback((next: boolean) => {
    memoryFlags.set(key, next);
    try {
      localStorage.setItem(key, String(next));
    } catch {
      // No storage: memoryFlags keeps it.
    }
    storageListeners.forEach((listener) => listener());
  }, [key]);
  return [value, set];
}
