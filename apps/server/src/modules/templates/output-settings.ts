/**
 * The output settings a template remembers (docs/merging.md#output-options: combined, keep forms,
 * repair, ...). The password protection is stored encrypted at rest and only ever decrypted for its
 * owner.
 */
import { ALL_OUTPUT_ROWS, TemplateOutputSettingsSchema, type PasswordProtection, type TemplateOutputSettings } from '@sheaf/shared';
import { decryptSecret, encryptSecret } from '../../crypto/secrets.ts';

export const DEFAULT_OUTPUT: TemplateOutputSettings = {
  isCombinedOutput: false,
  isKeepFormOutput: true,
  isOnlyPlaceholdersOutput: false,
  isTryRepair: false,
  isCompressedOutput: true,
  fileNamePattern: '',
  passwordProtection: null,
  rows: ALL_OUTPUT_ROWS,
};

/** The stored form: the settings with `passwordProtection` replaced by one encrypted string. */
interface StoredOutput extends Omit<TemplateOutputSettings, 'passwordProtection'> {
  passwordProtectionSecret?: string;
}

/** The settings as the owner sees them; unknown or missing stored values take their defaults. */
export function readOutput(key: Uint8Array, stored: Record<string, unknown>): TemplateOutputSettings {
  const { passwordProtectionSecret, ...flags } = stored as Partial<StoredOutput>;
  const merged = { ...DEFAULT_OUTPUT, ...flags, passwordProtection: null as PasswordProtection | null };
  if (typeof passwordProtectionSecret === 'string') {
    merged.passwordProtection = JSON.parse(decryptSecret(key, passwordProtectionSecret)) as PasswordProtection;
  }
  const parsed = TemplateOutputSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_OUTPUT;
}

/** The stored form of settings; a protection with both passwords empty is removed (docs/merging.md#password-protection). */
export function storeOutput(key: Uint8Array, output: TemplateOutputSettings): Record<string, unknown> {
  const { passwordProtection, ...flags } = output;
  const stored: StoredOutput = { ...flags };
  if (passwordProtection && (passwordProtection.readPassword || passwordProtection.modifyPassword)) {
    stored.passwordProtectionSecret = encryptSecret(key, JSON.stringify(passwordProtection));
  }
  return { ...stored };
}

/** Applies a partial update from PATCH /templates/:id to the current settings. */
export function mergeOutput(current: TemplateOutputSettings, change: Partial<TemplateOutputSettings>): TemplateOutputSettings {
  const next: TemplateOutputSettings = { ...current };
  for (const [name, value] of Object.entries(change) as Array<[keyof TemplateOutputSettings, unknown]>) {
    if (value !== undefined) (next as Record<string, unknown>)[name] = value;
  }
  const protection = next.passwordProtection;
  if (protection && !protection.readPassword && !protection.modifyPassword) next.passwordProtection = null;
  return next;
}
