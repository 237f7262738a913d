/**
 * How the account page shows an offline licence (docs/billing.md#licences): its state (active, expiring
 * soon or today, expired, every machine in use). The key itself is shown in groups of five by the
 * shared formatLicenceKey, as mails show it.
 */
import type { Licence } from '@sheaf/shared';

/** A licence expiring within this many days is announced with the days left. */
export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

export type LicenceExpiry =
  | { kind: 'expired' }
  | { kind: 'today' }
  | { kind: 'soon'; days: number }
  | { kind: 'later' };

/** Days are counted from midnight UTC to midnight UTC, so "today" is the expiry's own calendar day. */
export function licenceExpiry(licence: Pick<Licence, 'expiresAt' | 'status'>, now: Date): LicenceExpiry {
  const expires = new Date(licence.expiresAt);
  if (licence.status === 'expired' || Number.isNaN(expires.getTime()) || expires.getTime() <= now.getTime()) return { kind: 'expired' };
  const day = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const days = Math.round((day(expires) - day(now)) / DAY_MS);
  if (days <= 0) return { kind: 'today' };
  return days <= EXPIRY_WARNING_DAYS ? { kind: 'soon', days } : { kind: 'later' };
}

/** Every machine the licence allows is activated: another computer needs an additional licence. */
export const machineLimitReached = (licence: Pick<Licence, 'machines' | 'machineLimit'>): boolean => licence.machines >= licence.machineLimit;

/**
 * The section is shown when the account has licences, or on the desktop edition (where the licence is
 * the plan); a web account that never bought one sees the offer on /billing instead.
 */
export const showsLicences = (count: number, edition: 'web' | 'desktop'): boolean => count > 0 || edition === 'desktop';
