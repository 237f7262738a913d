import { describe, expect, it } from 'vitest';
import type { Sender } from '@sheaf/shared';
import { canReopen, firstErrorField, isValidServerName, methodAvailability, parsePort, senderDisplay, senderLabel, validateSenderForm, type SenderFormValues } from './senderRules.ts';

const empty: SenderFormValues = { email: '', identifier: '', subdomain: '', server: '', port: '', username: '', password: '' };
const sender = (extra: Partial<Sender>): Sender => ({
  id: 's1', email: 'ada@example.com', method: 'smtp', isVerified: false, isDkimVerified: false, isSpfVerified: false, isCnameVerified: false,
  isMxaVerified: false, isMxbVerified: false, identifier: null, spoofAddress: null, subdomain: null, dnsRecords: [], notifications: 'failed',
  server: 'smtp.example.com', port: 465, username: 'ada', hasPassword: true, lastError: null, createdAt: '', verifiedAt: null, ...extra,
});

describe('sender form checks', () => {
  it('checks an smtp sender in the documented order: email, server, port, username, password', () => {
    const errors = validateSenderForm('smtp', empty);
    expect(Object.keys(errors)).toEqual(['email', 'server', 'port', 'username', 'password']);
    expect(errors).toEqual({
      email: 'sender/EmptyEmailError', server: 'sender/ServerError', port: 'sender/PortError', username: 'sender/UsernameError', password: 'sender/PasswordError',
    });
    expect(firstErrorField(errors)).toBe('email');
    expect(firstErrorField(validateSenderForm('smtp', { ...empty, email: 'ada@example.com', port: '465' }))).toBe('server');
  });

  it('accepts a complete smtp sender and ports from 1 to 99999 only', () => {
    const ok = { ...empty, email: 'ada@example.com', server: 'smtp.example.com', port: '465', username: 'ada', password: 'secret' };
    expect(validateSenderForm('smtp', ok)).toEqual({});
    expect(validateSenderForm('smtp', { ...ok, port: '0' }).port).toBe('sender/PortError');
    expect(validateSenderForm('smtp', { ...ok, port: '100000' }).port).toBe('sender/PortError');
    expect(validateSenderForm('smtp', { ...ok, port: '99999' }).port).toBeUndefined();
    expect(validateSenderForm('smtp', { ...ok, port: '4.5' }).port).toBe('sender/PortError');
    expect(parsePort(' 587 ')).toBe(587);
  });

  it('knows server names and IP addresses from typos', () => {
    for (const good of ['smtp.example.com', 'localhost', '127.0.0.1', '::1', '[2001:db8::1]', 'mail-1.example.co.uk']) expect(isValidServerName(good), good).toBe(true);
    for (const bad of ['', 'smtp example.com', '-smtp.example.com', '256.1.1.1', 'smtp..example.com', 'smtp_1.example.com', 'http://smtp.example.com', 'smtp.example.com:25']) {
      expect(isValidServerName(bad), bad).toBe(false);
    }
  });

  it('reads server names as the server does (one shared rule): short IPv4 spellings and international names are hosts', () => {
    // 1.2.3 is 1.2.0.3 to every resolver; the server accepts it (and its guard refuses private ones).
    for (const good of ['1.2.3', '127.1', 'münchen.de', 'SMTP.Example.COM.']) expect(isValidServerName(good), good).toBe(true);
  });

  it('accepts an identifier with combining marks, as the server does', () => {
    // "José" typed with a combining acute accent (e + U+0301) and the precomposed é are both letters.
    for (const identifier of ['Jose\u0301 Díaz', 'José Díaz', 'Nguyễn Thị']) {
      expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com', identifier }), identifier).toEqual({});
    }
  });

  it('takes the port as 1 to 5 digits, as the server does', () => {
    const ok = { ...empty, email: 'ada@example.com', server: 'smtp.example.com', username: 'ada', password: 'secret' };
    expect(validateSenderForm('smtp', { ...ok, port: '000465' }).port).toBe('sender/PortError');
    expect(validateSenderForm('smtp', { ...ok, port: ' 00465 ' }).port).toBeUndefined();
  });

  it('tells an empty email from an invalid one', () => {
    expect(validateSenderForm('smtp', { ...empty, email: '   ' }).email).toBe('sender/EmptyEmailError');
    expect(validateSenderForm('smtp', { ...empty, email: 'ada@' }).email).toBe('sender/EmailError');
    expect(validateSenderForm('smtp', { ...empty, email: 'ada@example' }).email).toBe('sender/EmailError');
  });

  it('checks a spoof sender: email, identifier empty or invalid, then already verified', () => {
    expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com' })).toEqual({ identifier: 'sender/EmptyIdentifierError' });
    expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com', identifier: 'Ada <admin>' })).toEqual({ identifier: 'sender/IdentifierError' });
    expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com', identifier: 'A'.repeat(65) })).toEqual({ identifier: 'sender/IdentifierError' });
    expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com', identifier: "Ada's Shop & Co." })).toEqual({});
    // An unverified spoof sender may be added again (a new code); the server refuses it while its code is live.
    const added = [sender({ method: 'spoof', email: 'Ada@Example.com' })];
    expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com', identifier: 'Ada' }, added)).toEqual({});
    expect(validateSenderForm('domain', { ...empty, email: 'ada@example.com', subdomain: 'sheaf' }, [sender({ method: 'domain', email: 'Ada@Example.com' })]))
      .toEqual({ email: 'sender/EmailAlreadyAddedError' });
    const verified = [sender({ method: 'spoof', isVerified: true })];
    expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com', identifier: 'Ada' }, verified)).toEqual({ email: 'sender/EmailAlreadyVerifiedError' });
    // The same address with another method is another sender.
    expect(validateSenderForm('spoof', { ...empty, email: 'ada@example.com', identifier: 'Ada' }, [sender({ method: 'smtp' })])).toEqual({});
  });

  it('checks a domain sender: email and a subdomain of letters, digits, dots and hyphens', () => {
    expect(validateSenderForm('domain', { ...empty, email: 'ada@example.com', subdomain: 'sheaf' })).toEqual({});
    expect(validateSenderForm('domain', { ...empty, email: 'ada@example.com', subdomain: 'mail.out-1' })).toEqual({});
    for (const bad of ['', 'mail_out', 'mail out', '.mail', 'mail..out']) {
      expect(validateSenderForm('domain', { ...empty, email: 'ada@example.com', subdomain: bad }).subdomain, bad).toBe('sender/SubdomainError');
    }
  });

  it('lets an existing smtp sender keep its stored password when edited', () => {
    const values = { ...empty, email: 'ada@example.com', server: 'smtp.example.com', port: '587', username: 'ada', password: '' };
    expect(validateSenderForm('smtp', values, [sender({})], 's1')).toEqual({});
  });
});

describe('sender display and rules', () => {
  it('shows a spoof sender by its identifier, or the local part, with the spoof address', () => {
    const spoof = sender({ method: 'spoof', identifier: 'Ada Shop', spoofAddress: 'ada@sheaf.localhost' });
    expect(senderDisplay(spoof)).toEqual({ primary: 'Ada Shop', secondary: 'ada@sheaf.localhost' });
    expect(senderLabel(spoof)).toBe('Ada Shop <ada@sheaf.localhost>');
    expect(senderDisplay({ ...spoof, identifier: null }).primary).toBe('ada');
    expect(senderDisplay(sender({})).secondary).toBe('smtp.example.com:465');
    expect(senderLabel(sender({ method: 'domain', server: null }))).toBe('ada@example.com');
  });

  it('reopens unverified domain and smtp senders, never spoof ones', () => {
    expect(canReopen({ method: 'domain', isVerified: false })).toBe(true);
    expect(canReopen({ method: 'smtp', isVerified: false })).toBe(true);
    expect(canReopen({ method: 'smtp', isVerified: true })).toBe(false);
    expect(canReopen({ method: 'spoof', isVerified: false })).toBe(false);
  });

  it('greys out methods by plan and edition with the reason', () => {
    expect(methodAvailability('spoof', 'Free', 'web')).toEqual({ allowed: false, hint: 'sender/needs-pro' });
    expect(methodAvailability('spoof', 'Pro', 'web')).toEqual({ allowed: true, hint: null });
    expect(methodAvailability('smtp', 'Pro', 'web')).toEqual({ allowed: false, hint: 'sender/needs-enterprise' });
    expect(methodAvailability('domain', 'Enterprise', 'web').allowed).toBe(true);
    expect(methodAvailability('domain', 'Offline', 'desktop')).toEqual({ allowed: false, hint: 'sender/desktop-smtp-only' });
    expect(methodAvailability('smtp', 'Offline', 'desktop').allowed).toBe(true);
  });
});
