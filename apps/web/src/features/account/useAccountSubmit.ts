import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../app/snackbar.tsx';
import { formFailure } from './formFailure.ts';

interface Options<T> {
  success: string;
  failure: string;
  /** Codes the server sends without a field, placed under a field (see formFailure). */
  codeFields?: Record<string, string>;
  onSuccess?: (result: T) => void;
}

/**
 * Submission state of one account form: busy flag, server field errors, and the success or failure
 * snackbar every account action shows (docs/accounts.md#account-page).
 */
export function useAccountSubmit() {
  const { t } = useTranslation(['account', 'errors']);
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  async function submit<T>(call: () => Promise<T>, options: Options<T>): Promise<boolean> {
    setBusy(true);
    setServerErrors({});
    try {
      const result = await call();
      options.onSuccess?.(result);
      notify('success', options.success);
      return true;
    } catch (error) {
      const failure = formFailure(error, t, options.codeFields);
      setServerErrors(failure.fields);
      if (failure.general !== null || Object.keys(failure.fields).length > 0) {
        notify('error', failure.general ? `${options.failure} ${failure.general}` : options.failure);
      }
      return false;
    } finally {
      setBusy(false);
    }
  }

  const clearServerError = (field: string) =>
    setServerErrors((errors) => {
      if (!(field in errors)) return errors;
      const { [field]: _removed, ...rest } = errors;
      return rest;
    });

  return { busy, serverErrors, submit, clearServerError };
}
