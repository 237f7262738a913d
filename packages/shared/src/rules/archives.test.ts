/** Attached ZIPs judged from their central directory: blocked types inside, programs stored inside, nested ZIPs, encryption, damage. */
import { describe, expect, it } from 'vitest';
import { archiveRefusal, attachmentRefusal, blockedExtensionOf } from '../index.ts';

interface Entry {
  name: string;
  data?: Uint8Array;
  flags?: number;
  method?: number;
  /** An Info-ZIP Unicode Path extra field carrying another name. */
  unicodePath?: string;
}

const text = (value: string) => new TextEncoder().encode(value);

/** A ZIP of stored entries, written field by field (CRCs are not checked by the listing). */
function zip(entries: Entry[], prefix = new Uint8Array(0)): Uint8Array {
  const parts: number[] = [...prefix];
  const central: number[] = [];
  const u16 = (out: number[], value: number) => out.push(value & 0xff, (value >> 8) & 0xff);
  const u32 = (out: number[], value: number) => out.push(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff);
  for (const entry of entries) {
    const name = text(entry.name);
    const data = entry.data ?? text('x');
    const extra: number[] = [];
    if (entry.unicodePath) {
      const path = text(entry.unicodePath);
      u16(extra, 0x7075);
      u16(extra, 5 + path.length);
      extra.push(1, 0, 0, 0, 0, ...path);
    }
    const offset = parts.length - prefix.length;
    u32(parts, 0x04034b50); u16(parts, 20); u16(parts, entry.flags ?? 0); u16(parts, entry.method ?? 0); u32(parts, 0); u32(parts, 0);
    u32(parts, data.length); u32(parts, data.length); u16(parts, name.length); u16(parts, 0); parts.push(...name, ...data);
    u32(central, 0x02014b50); u16(central, 20); u16(central, 20); u16(central, entry.flags ?? 0); u16(central, entry.method ?? 0);
    u32(central, 0); u32(central, 0); u32(central, data.length); u32(central, data.length); u16(central, name.length);
    u16(central, extra.length); u16(central, 0); u16(central, 0); u16(central, 0); u32(central, 0); u32(central, offset);
    central.push(...name, ...extra);
  }
  const directoryOffset = parts.length - prefix.length;
  parts.push(...central);
  u32(parts, 0x06054b50); u16(parts, 0); u16(parts, 0); u16(parts, entries.length); u16(parts, entries.length);
  u32(parts, central.length); u32(parts, directoryOffset); u16(parts, 0);
  return new Uint8Array(parts);
}

describe('attached archives', () => {
  it('accepts a ZIP of documents, and files that are no ZIP at all', () => {
    expect(archiveRefusal('letters.zip', zip([{ name: 'a.pdf' }, { name: 'docs/' }, { name: 'docs/b.pdf' }]))).toBeNull();
    expect(archiveRefusal('empty.zip', zip([]))).toBeNull();
    expect(archiveRefusal('terms.pdf', text('%PDF-1.7'))).toBeNull();
  });

  it('refuses a ZIP carrying a blocked type, by the same rule as attachments themselves', () => {
    expect(archiveRefusal('tools.zip', zip([{ name: 'readme.txt' }, { name: 'bin/Setup.EXE' }]))).toEqual({ code: 'email/attachment-archive-blocked', entry: 'Setup.EXE' });
    for (const extension of ['bat', 'cmd', 'com', 'scr', 'js', 'vbs', 'msi', 'jar', 'ps1']) {
      expect(archiveRefusal('a.zip', zip([{ name: `x.${extension}` }]))?.code).toBe('email/attachment-archive-blocked');
      expect(attachmentRefusal(`x.${extension}`, text('x'))).toBe('email/attachment-blocked-type');
    }
    // Windows drops trailing dots and blanks when it saves a file.
    expect(blockedExtensionOf('run.exe. ')).toBe('exe');
    expect(archiveRefusal('a.zip', zip([{ name: 'run.exe.' }]))?.code).toBe('email/attachment-archive-blocked');
    // The name many extractors write (Unicode Path extra field) counts too.
    expect(archiveRefusal('a.zip', zip([{ name: 'notes.txt', unicodePath: 'notes.exe' }]))).toEqual({ code: 'email/attachment-archive-blocked', entry: 'notes.exe' });
  });

  it('looks into entries stored uncompressed: programs by their first bytes, ZIPs inside ZIPs', () => {
    expect(archiveRefusal('a.zip', zip([{ name: 'invoice.pdf', data: new Uint8Array([0x4d, 0x5a, 0x90, 0]) }]))?.code).toBe('email/attachment-archive-blocked');
    const inner = zip([{ name: 'deep/setup.exe' }]);
    expect(archiveRefusal('outer.zip', zip([{ name: 'inner.zip', data: inner }]))).toEqual({ code: 'email/attachment-archive-blocked', entry: 'setup.exe' });
    expect(archiveRefusal('outer.zip', zip([{ name: 'inner.zip', data: zip([{ name: 'ok.pdf' }]) }]))).toBeNull();
  });

  it('refuses password-protected and unreadable archives (mail servers cannot scan them)', () => {
    expect(archiveRefusal('secret.zip', zip([{ name: 'a.pdf', flags: 1 }]))?.code).toBe('email/attachment-archive-encrypted');
    expect(archiveRefusal('aes.zip', zip([{ name: 'a.pdf', method: 99 }]))?.code).toBe('email/attachment-archive-encrypted');
    const whole = zip([{ name: 'a.pdf' }]);
    expect(archiveRefusal('cut.zip', whole.subarray(0, whole.length - 30))?.code).toBe('email/attachment-archive-unreadable');
    expect(archiveRefusal('fake.zip', text('not a zip at all'))?.code).toBe('email/attachment-archive-unreadable');
  });

  it('reads an archive with bytes before it (offsets shifted), as extractors do', () => {
    expect(archiveRefusal('a.zip', zip([{ name: 'a.vbs' }], text('junk before the archive')))?.code).toBe('email/attachment-archive-blocked');
  });
});
