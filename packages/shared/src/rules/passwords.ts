/**
 * The account password rule (docs/accounts.md#password-rules: at least 6 characters; the server also
 * refuses the most common passwords and the account's own address). Registration, reset, change
 * and child users apply it on the server; the forms say the same before anything is sent.
 */
import { MIN_PASSWORD_LENGTH } from '../constants.ts';

/** The most common passwords (leaked-password lists' top entries, several languages). */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456', '1234567', '12345678', '123456789', '1234567890', '111111', '000000', '123123', '654321',
  '666666', '121212', '112233', '123321', 'abc123', 'abcdef', 'qwerty', 'qwerty123', 'qwertz', 'azerty',
  'password', 'password1', 'password123', 'passw0rd', 'passwort', 'motdepasse', 'contrasena', 'contraseña',
  'iloveyou', 'letmein', 'welcome', 'admin', 'admin123', 'monkey', 'dragon', 'football', 'baseball',
  'sunshine', 'princess', 'master', 'shadow', 'superman', 'trustno1', '1q2w3e4r', '1qaz2wsx', 'zaq12wsx',
  'hallo123', 'bonjour', 'soleil', 'woaini', 'sheaf', 'sheaf123',
]);

/** What is wrong with a new account password: empty, too short, or too easy to guess; null when fine. */
export function accountPasswordProblem(password: string, email: string): 'empty' | 'short' | 'common' | null {
  if (password.length === 0) return 'empty';
  if (password.length < MIN_PASSWORD_LENGTH) return 'short';
  const lower = password.toLowerCase();
  if (lower === email.trim().toLowerCase() || COMMON_PASSWORDS.has(lower)) return 'common';
  return null;
}
