// @vitest-environment node
/** Licences on the account page: the key in groups of five, expiry and machine states. */
import { describe, expect, it } from 'vitest';
import { formatLicenceKey } from '@sheaf/shared';
import { licenceExpiry, machineLimitReached, showsLicences } from './licences.ts';

describe('licences on the account page', () => {
  it('shows a 25-character key in five groups of five', () => {
    // The shared display (LicencesSection shows every key through it), as mails show the key.
    expect(formatLicenceKey('ABCDE12345FGHJK67890MNPQR')).toBe('ABCDE-12345-FGHJK-67890-MNPQR');
    expect(formatLicenceKey('abcde-12345 fghjk67890mnpqr')).toBe('ABCDE-12345-FGHJK-67890-MNPQR');
  });

  it('says when a licence expires', () => {
    const now = new Date('2025-06-10T12:00:00Z');
    const at = (expiresAt: string, status: 'active' | 'expired' = 'active') => licenceExpiry({ expiresAt, status }, now);
    expect(at('2025-06-10T10:00:00Z')).toEqual({ kind: 'expired' });
    expect(at('2026-06-10T00:00:00Z', 'expired')).toEqual({ kind: 'expired' });
    expect(at('2025-06-10T23:00:00Z')).toEqual({ kind: 'today' });
    expect(at('2025-06-11T01:00:00Z')).toEqual({ kind: 'soon', days: 1 });
    expect(at('2025-07-10T00:00:00Z')).toEqual({ kind: 'soon', days: 30 });
    expect(at('2025-07-11T00:00:00Z')).toEqual({ kind: 'later' });
  });

  it('knows when every machine is in use', () => {
    expect(machineLimitReached({ machines: 1, machineLimit: 2 })).toBe(false);
    expect(machineLimitReached({ machines: 2, machineLimit: 2 })).toBe(true);
  });

  it('shows the section with licences, or always on the desktop edition', () => {
    expect(showsLicences(0, 'web')).toBe(false);
    expect(showsLicences(1, 'web')).toBe(true);
    expect(showsLicences(0, 'desktop')).toBe(true);
  });
});
