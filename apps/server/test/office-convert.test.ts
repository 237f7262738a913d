/**
 * LibreOffice conversions of word-processor templates (docs/word-templates.md#conversion): every source
 * type to DOCX, DOCX to PDF, and the bad cases (damaged, password protected, remote images, too slow,
 * too large). Documents are made here: RTF, flat ODT and text written as text; .doc, .dot, .dotx and
 * .docm made by LibreOffice itself from a DOCX. Skipped where LibreOffice or python3-uno is missing.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OfficeConverter, type WordSourceType } from '../src/adapters/office/index.ts';

const available =
  spawnSync('/usr/bin/soffice', ['--version'], { stdio: 'ignore' }).status === 0 &&
  spawnSync('/usr/bin/python3', ['-c', 'import uno'], { stdio: 'ignore' }).status === 0;
if (!available) console.warn('office-convert.test.ts skipped: needs LibreOffice (/usr/bin/soffice) and python3-uno');

const RTF = String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Times New Roman;}}\f0 Rich text from {\b RTF} for \{\{Name\}\}\par}`;
const fodt = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>${body}</office:text></office:body></office:document>`;

/** A document long enough to take LibreOffice a few seconds (hundreds of pages). */
const longFodt = (): string => fodt(Array.from({ length: 20_000 }, (_, index) => `<text:p>Paragraph ${index} of a long document for {{Name}}</text:p>`).join(''));

/** The text of a DOCX's body (word/document.xml), tags dropped. */
function docxText(docx: Uint8Array, scratch: string): string {
  const file = path.join(scratch, `check-${Math.random().toString(36).slice(2)}.docx`);
  writeFileSync(file, docx);
  const xml = spawnSync('unzip', ['-p', file, 'word/document.xml'], { encoding: 'utf8' }).stdout;
  return xml.replace(/<[^>]+>/g, '');
}

/** Runs LibreOffice's own --convert-to (test set-up only: makes the legacy and template types). */
function sofficeConvert(input: string, filter: string, outDir: string, profile: string): void {
  const done = spawnSync('/usr/bin/soffice', [`-env:UserInstallation=${pathToFileURL(profile).href}`, '--headless', '--convert-to', filter, '--outdir', outDir, input], {
    stdio: 'ignore',
    timeout: 120_000,
  });
  expect(done.status).toBe(0);
}

/** A Word 97 .doc saved with a password, through UNO (LibreOffice's --convert-to cannot set one). */
const ENCRYPT_PY = String.raw`
import subprocess, sys, time, uno
from com.sun.star.beans import PropertyValue
def prop(n, v):
    p = PropertyValue(); p.Name = n; p.Value = v; return p
src, dst, profile = sys.argv[1:4]
args = ['/usr/lib/libreoffice/program/soffice.bin', '--headless', '--norestore', '--nolockcheck', '-env:UserInstallation=' + profile, '--accept=pipe,name=sheaf-test-encrypt;urp;']
office = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext('com.sun.star.bridge.UnoUrlResolver', local)
while True:
    try:
        ctx = resolver.resolve('uno:pipe,name=sheaf-test-encrypt;urp;StarOffice.ComponentContext'); break
    except Exception:
        if office.poll() == 81: office = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.05)
desktop = ctx.ServiceManager.createInstanceWithContext('com.sun.star.frame.Desktop', ctx)
doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), '_blank', 0, (prop('Hidden', True),))
doc.storeToURL(uno.systemPathToFileUrl(dst), (prop('FilterName', 'MS Word 97'), prop('Password', 'secret')))
doc.close(True)
office.kill()
`;

describe.skipIf(!available)('office conversions', () => {
  let scratch: string;
  let tmpDir: string;
  let converter: OfficeConverter;
  const sources = new Map<WordSourceType, Uint8Array>();

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sheaf-office-test-'));
    tmpDir = path.join(scratch, 'tmp');
    converter = new OfficeConverter({ tmpDir, size: 1 });
    sources.set('rtf', Buffer.from(RTF));
    sources.set('fodt', Buffer.from(fodt('<text:p>Flat ODT for {{Name}}</text:p>')));
    sources.set('txt', Buffer.from('Plain text for {{Name}}, Grüße 你好\nSecond line\n'));
    // The other types, made by LibreOffice from a DOCX of ours.
    const docx = await converter.toDocx(sources.get('rtf')!, 'rtf');
    sources.set('docx', docx);
    const base = path.join(scratch, 'base.docx');
    writeFileSync(base, docx);
    const profile = path.join(scratch, 'profile');
    const made = { doc: 'doc:MS Word 97', dot: 'dot:MS Word 97 Vorlage', dotx: 'dotx:MS Word 2007 XML Template', docm: 'docm:MS Word 2007 XML VBA', odt: 'odt:writer8', xml: 'xml:MS Word 2003 XML' } as const;
    for (const [type, filter] of Object.entries(made)) {
      sofficeConvert(base, filter, scratch, profile);
      sources.set(type as WordSourceType, readFileSync(path.join(scratch, `base.${type}`)));
    }
  }, 240_000);

  afterAll(async () => {
    await converter?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('runs LibreOffice with no network: in a network namespace here', () => {
    // This machine runs tests as root, where `unshare -n` works; the profile-only guard is tested below.
    expect(converter.isolation).toBe('namespace');
  });

  it.each(['rtf', 'fodt', 'txt', 'docx', 'doc', 'dot', 'dotx', 'docm', 'odt', 'xml'] as const)('converts a .%s to a DOCX holding its text', async (type) => {
    const docx = await converter.toDocx(sources.get(type)!, type);
    expect(Buffer.from(docx.subarray(0, 2)).toString()).toBe('PK');
    const text = docxText(docx, scratch);
    expect(text).toContain(type === 'fodt' ? 'Flat ODT for {{Name}}' : type === 'txt' ? 'Plain text for {{Name}}, Grüße 你好' : 'Rich text from RTF for {{Name}}');
  });

  it('keeps no macros of a .docm: the DOCX it becomes has no VBA project', async () => {
    const docx = await converter.toDocx(sources.get('docm')!, 'docm');
    const file = path.join(scratch, 'from-docm.docx');
    writeFileSync(file, docx);
    const names = spawnSync('unzip', ['-Z1', file], { encoding: 'utf8' }).stdout;
    expect(names).toContain('word/document.xml');
    expect(names).not.toMatch(/vbaProject|vbaData/);
  });

  it('converts a DOCX to a PDF that qpdf checks and pdftotext reads', async () => {
    const pdf = await converter.toPdf(sources.get('docx')!);
    const file = path.join(scratch, 'out.pdf');
    writeFileSync(file, pdf);
    expect(spawnSync('qpdf', ['--check', file]).status).toBe(0);
    expect(spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout).toContain('Rich text from RTF for {{Name}}');
  });

  it('keeps one warm LibreOffice across conversions', async () => {
    await converter.toDocx(sources.get('rtf')!, 'rtf');
    await converter.toPdf(sources.get('docx')!);
    expect(converter.running).toBe(1);
  });

  it('replaces a warm LibreOffice that died while idle, so the next file is not blamed for it', async () => {
    await converter.toDocx(sources.get('rtf')!, 'rtf');
    // soffice.bin processes of this converter: their profile lies under its tmpDir.
    const offices = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
          return command.startsWith('/usr/lib/libreoffice/program/soffice.bin') && command.includes(pathToFileURL(tmpDir).href);
        } catch {
          return false;
        }
      });
    expect(offices).toHaveLength(1);
    process.kill(Number(offices[0]), 'SIGKILL');
    // Dead (a zombie its Python has not reaped yet counts) before the next conversion is asked for.
    const dead = (): boolean => {
      try {
        return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${offices[0]}/stat`, 'latin1'));
      } catch {
        return true;
      }
    };
    await vi.waitFor(() => expect(dead()).toBe(true), { timeout: 10_000, interval: 20 });
    expect(docxText(await converter.toDocx(sources.get('rtf')!, 'rtf'), scratch)).toContain('Rich text');
    expect(converter.running).toBe(1);
  });

  it('spreads conversions over its processes, never more than its size, each file getting its own result', async () => {
    const pair = new OfficeConverter({ tmpDir, size: 2 });
    try {
      const types = ['rtf', 'fodt', 'txt', 'rtf', 'fodt'] as const;
      const results = await Promise.all(types.map((type) => pair.toDocx(sources.get(type)!, type)));
      expect(results.map((docx) => docxText(docx, scratch).trim().split(' ')[0])).toEqual(['Rich', 'Flat', 'Plain', 'Rich', 'Flat']);
      expect(pair.running).toBe(2);
    } finally {
      await pair.close();
    }
  });

  it('refuses damaged files and files of another kind as unreadable', async () => {
    const docx = sources.get('docx')!;
    const cases: [Uint8Array, WordSourceType][] = [
      [docx.subarray(0, Math.floor(docx.length / 2)), 'docx'],
      [Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(3000, 7)]), 'docx'],
      [Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\n'), 'doc'],
      [Buffer.alloc(0), 'rtf'],
      [Buffer.from('<html><body>not a document</body></html>'), 'xml'],
    ];
    for (const [bytes, type] of cases) {
      await expect(converter.toDocx(bytes, type)).rejects.toMatchObject({ code: 'template/office-unreadable', params: { type } });
    }
    // The warm process still works after refusals.
    expect(docxText(await converter.toDocx(sources.get('rtf')!, 'rtf'), scratch)).toContain('Rich text');
  });

  it('refuses a password-protected .doc as encrypted', async () => {
    const source = path.join(scratch, 'base.docx');
    const target = path.join(scratch, 'locked.doc');
    const made = spawnSync('/usr/bin/python3', ['-c', ENCRYPT_PY, source, target, pathToFileURL(path.join(scratch, 'profile-encrypt')).href], { stdio: 'ignore', timeout: 120_000 });
    expect(made.status).toBe(0);
    await expect(converter.toDocx(readFileSync(target), 'doc')).rejects.toMatchObject({ code: 'template/office-encrypted' });
  });

  // Not tested: an encrypted DOCX (an OLE file holding EncryptedPackage, detected in ole-encryption.ts);
  // LibreOffice 7.4 writes no encrypted OOXML through UNO and no other tool here makes one.

  it.each(['namespace', 'profile'] as const)('never fetches a remote image (isolation: %s)', async (isolation) => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const remote = new OfficeConverter({ tmpDir, size: 1, isolation });
    try {
      const image = `<draw:frame draw:name="p" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="http://127.0.0.1:${port}/x.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`;
      const docx = await remote.toDocx(Buffer.from(fodt(`<text:p>Picture from afar ${image}</text:p>`)), 'fodt');
      expect(docxText(docx, scratch)).toContain('Picture from afar');
      const pdf = await remote.toPdf(docx);
      expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
      // The server answers (it is up), and LibreOffice asked it nothing.
      expect((await fetch(`http://127.0.0.1:${port}/probe`)).status).toBe(200);
      expect(requests).toEqual(['GET /probe']);
    } finally {
      await remote.close();
      server.close();
    }
  });

  it('never reads local files a document points at: XML entities, INCLUDETEXT fields, linked pictures', async () => {
    const secret = path.join(scratch, 'secret.txt');
    writeFileSync(secret, 'TOPSECRET-42');
    const picture = path.join(scratch, 'secret.png');
    writeFileSync(picture, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==', 'base64'));
    const entity = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE office:document [<!ENTITY leak SYSTEM "${pathToFileURL(secret).href}">]>\n${fodt('<text:p>Entity: &leak;</text:p>').replace(/^<\?xml[^>]*>\n/, '')}`;
    const field = String.raw`{\rtf1\ansi Included: {\field{\*\fldinst INCLUDETEXT "${secret}"}{\fldrslt old}}\par}`;
    const linked = fodt(`<text:p>Linked <draw:frame draw:name="p" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${pathToFileURL(picture).href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`);
    const outputs: string[] = [];
    for (const [text, type] of [[entity, 'fodt'], [field, 'rtf'], [linked, 'fodt']] as const) {
      let docx: Uint8Array;
      try {
        docx = await converter.toDocx(Buffer.from(text), type);
      } catch (error) {
        // LibreOffice refuses a DOCTYPE declaring entities: refused is safe too.
        expect(error).toMatchObject({ code: 'template/office-unreadable' });
        continue;
      }
      const file = path.join(scratch, 'local.docx');
      writeFileSync(file, docx);
      outputs.push(spawnSync('unzip', ['-Z1', file], { encoding: 'utf8' }).stdout, docxText(docx, scratch));
      const pdf = path.join(scratch, 'local.pdf');
      writeFileSync(pdf, await converter.toPdf(docx));
      outputs.push(spawnSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }).stdout);
      expect(spawnSync('pdfimages', ['-list', pdf], { encoding: 'utf8' }).stdout.split('\n').filter((line) => /^\s+\d/.test(line))).toEqual([]);
    }
    expect(outputs.join('\n')).not.toContain('TOPSECRET');
    expect(outputs.join('\n')).not.toContain('word/media');
  });

  it.each(['namespace', 'profile'] as const)('answers a technical error when LibreOffice cannot be started (isolation: %s), leaving nothing behind', async (isolation) => {
    const brokenDir = path.join(scratch, `broken-${isolation}`);
    const broken = new OfficeConverter({ tmpDir: brokenDir, size: 1, isolation, python: path.join(scratch, 'no-such-python') });
    try {
      await expect(broken.toDocx(sources.get('rtf')!, 'rtf')).rejects.toMatchObject({ code: 'generic/technical-error' });
      expect(readdirSync(brokenDir)).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('ends an idle LibreOffice cleanly: its pipes are gone from /tmp, not left behind as a kill leaves them', async () => {
    const ownDir = path.join(scratch, 'clean-end');
    const own = new OfficeConverter({ tmpDir: ownDir, size: 1, idleMs: 100 });
    try {
      await own.toDocx(sources.get('rtf')!, 'rtf');
      // LibreOffice's UNO pipe is a socket in /tmp named after the --accept argument it was started with.
      const pipeName = readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .map((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
          } catch {
            return '';
          }
        })
        .filter((command) => command.startsWith('/usr/lib/libreoffice/program/soffice.bin') && command.includes(pathToFileURL(ownDir).href))
        .map((command) => /--accept=pipe,name=([^;]+);/.exec(command)?.[1])[0];
      expect(pipeName).toMatch(/^sheaf-/);
      const socket = readdirSync('/tmp').find((name) => name.startsWith('OSL_PIPE_') && name.endsWith(`_${pipeName}`));
      expect(socket, 'the pipe while LibreOffice runs').toBeDefined();
      // Idle past idleMs: the process is ended and its folder removed.
      await vi.waitFor(() => expect(own.running).toBe(0), { timeout: 15_000, interval: 50 });
      await vi.waitFor(() => expect(readdirSync(ownDir)).toEqual([]), { timeout: 10_000, interval: 50 });
      expect(existsSync(path.join('/tmp', socket!))).toBe(false);
    } finally {
      await own.close();
    }
  });

  it('kills a conversion past its deadline and leaves no profile behind', async () => {
    const slowDir = path.join(scratch, 'slow');
    const slow = new OfficeConverter({ tmpDir: slowDir, size: 1, timeoutMs: 200 });
    try {
      await slow.warm();
      expect(readdirSync(slowDir).filter((name) => name.startsWith('sheaf-office-'))).toHaveLength(1);
      await expect(slow.toDocx(Buffer.from(longFodt()), 'fodt')).rejects.toMatchObject({ code: 'template/office-timeout', params: { seconds: 1 } });
      await slow.close();
      expect(slow.running).toBe(0);
      expect(readdirSync(slowDir)).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('refuses a conversion past its memory cap, and a file over the size limit', async () => {
    const capped = new OfficeConverter({ tmpDir, size: 1, maxMemoryMb: 40, maxInputMb: 2 });
    try {
      await expect(capped.toDocx(Buffer.from(longFodt()), 'fodt')).rejects.toMatchObject({ code: 'template/office-too-complex' });
      await expect(capped.toDocx(Buffer.alloc(3 * 1_048_576, 65), 'txt')).rejects.toMatchObject({ code: 'template/too-large', params: { maxMb: 2 } });
    } finally {
      await capped.close();
    }
    expect(readdirSync(tmpDir).filter((name) => name.startsWith('sheaf-office-') && !name.startsWith('sheaf-office-io'))).toHaveLength(1);
  });
});
