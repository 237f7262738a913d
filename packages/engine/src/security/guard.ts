/** Turns any failure while reading a PDF into a catalogue error: callers see SheafErrors only. */
import { SheafError } from '@sheaf/shared/errors';

const MAX_DETAIL = 120;

export function asTemplateError(error: unknown): SheafError {
  if (error instanceof SheafError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const detail = message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL)}...` : message;
  return new SheafError('template/corrupt', { detail }, { cause: error });
}

export function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asTemplateError(error);
  }
}
