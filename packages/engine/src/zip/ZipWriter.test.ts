import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32, crc32Combine } from './crc32.ts';
import { ZipWriter } from './ZipWriter.ts';

const workDir = mkdtempSync(path.join(tmpdir(), 'sheaf-zip-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const utf8 = new TextEncoder();

async function buildZip(fill: (zip: ZipWriter) => Promise<void>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const zip = new ZipWriter((chunk) => {
    chunks.push(chunk);
  });
  await fill(zip);
  await zip.finish();
  return Buffer.concat(chunks);
}

function saveZip(name: string, bytes: Uint8Array): string {
  const file = path.join(workDir, name);
  writeFileSync(file, bytes);
  return file;
}

/** Python's zipfile as an independent reader: names, sizes and data, with every CRC verified on read. */
function readWithPython(file: string): { names: string[]; contents: string[]; zip64: boolean } {
  const script = `
import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    infos = z.infolist()
    print(json.dumps({
        "names": [i.filename for i in infos],
        "contents": [z.read(i).decode("utf-8") for i in infos[:50]],
        "zip64": any(i.extract_version >= 45 for i in infos) or len(infos) > 65535,
    }))`;
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

describe('ZipWriter', () => {
  it('writes an archive that unzip, zipinfo and Python accept, with Unicode names and chunked data', async () => {
    const files: [string, string][] = [
      ['Smith.pdf', '%PDF-1.7 Smith'],
      ['Müller – Ærø 東京.pdf', '%PDF-1.7 Unicode name'],
      ['empty.pdf', ''],
      ['folder/nested.pdf', 'x'.repeat(70_000)],
    ];
    const bytes = await buildZip(async (zip) => {
      for (const [name, text] of files) {
        const data = utf8.encode(text);
        // The last file goes in as three chunks, as a merge writes prefix + row part + trailer.
        await zip.addFile(name, name.startsWith('folder') ? [data.subarray(0, 10), data.subarray(10, 40_000), data.subarray(40_000)] : data);
      }
    });
    const file = saveZip('small.zip', bytes);
    expect(execFileSync('unzip', ['-t', file], { encoding: 'utf8' })).toContain('No errors detected');
    const listing = execFileSync('zipinfo', [file], { encoding: 'utf8' });
    expect(listing).toContain('4 files');
    expect(listing).toContain('stor'); // stored, not deflated
    const read = readWithPython(file);
    expect(read.names).toEqual(files.map(([name]) => name));
    expect(read.contents).toEqual(files.map(([, text]) => text));
    expect(read.zip64).toBe(false);
  });

  it('stores the modification time given for a file', async () => {
    const bytes = await buildZip((zip) => zip.addFile('dated.pdf', utf8.encode('x'), { modified: new Date(2024, 2, 5, 10, 20, 30) }));
    const listing = execFileSync('zipinfo', ['-T', saveZip('dated.zip', bytes)], { encoding: 'utf8' });
    expect(listing).toMatch(/20240305\.102030/);
  });

  it('uses a CRC given by the caller, e.g. one combined from a shared prefix', async () => {
    const prefix = utf8.encode('%PDF-1.7 template bytes shared by all documents\n');
    const rows = ['row one', 'row two, longer', 'row three'].map((text) => utf8.encode(text));
    const prefixCrc = crc32(prefix);
    const bytes = await buildZip(async (zip) => {
      for (const [index, row] of rows.entries()) {
        await zip.addFile(`doc-${index + 1}.pdf`, [prefix, row], { crc32: crc32Combine(prefixCrc, crc32(row), row.length) });
      }
    });
    const read = readWithPython(saveZip('combined-crc.zip', bytes)); // testzip() verifies each CRC
    expect(read.contents[1]).toBe('%PDF-1.7 template bytes shared by all documents\nrow two, longer');
  });

  it('switches to ZIP64 end records past 65,535 entries', async () => {
    const count = 70_000;
    const bytes = await buildZip(async (zip) => {
      for (let i = 1; i <= count; i++) await zip.addFile(`document-${i}.pdf`, utf8.encode(`row ${i}`));
    });
    const file = saveZip('many.zip', bytes);
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toContain('No errors detected');
    expect(execFileSync('zipinfo', ['-h', file], { encoding: 'utf8' })).toContain(`number of entries: ${count}`);
    const read = readWithPython(file);
    expect(read.names.length).toBe(count);
    expect(read.names[count - 1]).toBe(`document-${count}.pdf`);
    expect(read.contents[49]).toBe('row 50');
  });

  it('describes an entry of 4 GiB or more with ZIP64 fields', async () => {
    // 4 GiB + 1 MiB of one repeated block: the sink counts bytes instead of keeping them.
    const block = new Uint8Array(2 ** 20).fill(7);
    const blocks = 4097;
    const blockCrc = crc32(block);
    let crc = 0;
    for (let i = 0; i < blocks; i++) crc = crc32Combine(crc, blockCrc, block.length);
    const headers: Uint8Array[] = [];
    let total = 0;
    const zip = new ZipWriter((chunk) => {
      total += chunk.length;
      if (chunk !== block) headers.push(chunk.slice());
    });
    await zip.addFile('huge.pdf', new Array<Uint8Array>(blocks).fill(block), { crc32: crc });
    await zip.addFile('after.pdf', utf8.encode('small file after the big one'));
    await zip.finish();
    expect(zip.bytesWritten).toBe(total);

    const size = blocks * block.length;
    const local = new DataView(headers[0].buffer);
    expect(local.getUint32(18, true)).toBe(0xffffffff);
    expect(local.getUint16(30 + 8, true)).toBe(0x0001); // ZIP64 extra field after the name
    expect(local.getBigUint64(30 + 8 + 4, true)).toBe(BigInt(size));

    // headers: huge.pdf's local header, after.pdf's local header and data, central directory, end records.
    // The directory and end records are read back field by field with Python's struct module.
    const tail = Buffer.concat(headers.slice(3));
    const smallLocal = headers[1];
    const script = `
import struct, sys
tail = open(sys.argv[1], 'rb').read()
eocd = tail.rfind(b'PK\\x05\\x06')
loc = tail.rfind(b'PK\\x06\\x07')
z64 = tail.rfind(b'PK\\x06\\x06')
_, entries, cd_size, cd_offset = struct.unpack('<QQQQ', tail[z64 + 24:z64 + 56])
(z64_offset,) = struct.unpack('<Q', tail[loc + 8:loc + 16])
print(entries, cd_size, cd_offset, z64_offset, struct.unpack('<HHII', tail[eocd + 8:eocd + 20]))
# second central entry: its local header offset is past 4 GiB, so it sits in the ZIP64 field
first_len = 46 + struct.unpack('<H', tail[28:30])[0] + struct.unpack('<H', tail[30:32])[0]
second = tail[first_len:]
name_len, extra_len = struct.unpack('<HH', second[28:32])
extra = second[46 + name_len:46 + name_len + extra_len]
print(struct.unpack('<I', second[42:46])[0], struct.unpack('<HHQ', extra))`;
    const tailFile = saveZip('tail.bin', tail);
    const [summary, second] = execFileSync('python3', ['-c', script, tailFile], { encoding: 'utf8' }).trim().split('\n');
    const secondOffset = 30 + 'huge.pdf'.length + 20 + size;
    const directoryOffset = secondOffset + smallLocal.length + 'small file after the big one'.length;
    const directorySize = tail.length - 56 - 20 - 22;
    expect(summary).toBe(
      `2 ${directorySize} ${directoryOffset} ${directoryOffset + directorySize} (2, 2, ${directorySize}, ${0xffffffff})`,
    );
    expect(second).toBe(`${0xffffffff} (1, 8, ${secondOffset})`);
  });

  it('waits for the sink before writing more (backpressure)', async () => {
    const writes: number[] = [];
    let release = () => {};
    const zip = new ZipWriter((chunk) => {
      writes.push(chunk.length);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    let done = false;
    const adding = zip.addFile('a.pdf', [utf8.encode('12345'), utf8.encode('678')]).then(() => {
      done = true;
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
    await settle();
    expect(writes).toEqual([35]); // the header, then nothing until the sink drains
    release();
    await settle();
    expect(writes).toEqual([35, 5]);
    release();
    await settle();
    expect(writes).toEqual([35, 5, 3]);
    expect(done).toBe(false);
    release();
    await adding;
    expect(done).toBe(true);
  });

  it('refuses files after finish', async () => {
    const zip = new ZipWriter(() => undefined);
    await zip.finish();
    await expect(zip.addFile('late.pdf', new Uint8Array(1))).rejects.toThrow(/after finish/);
  });
});
