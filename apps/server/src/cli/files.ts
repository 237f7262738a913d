import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SheafError } from '@sheaf/shared';

/** Files of a folder with the given extensions, keyed by name (fonts without extension, images with). */
export async function readNamedFiles(dir: string, extensions: string[], kind: 'font' | 'image'): Promise<Map<string, Uint8Array>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new SheafError('generic/invalid-input', { detail: `cannot read the folder ${dir}` });
  }
  const files = new Map<string, Uint8Array>();
  for (const name of names.sort()) {
    const extension = path.extname(name).toLowerCase();
    if (!extensions.includes(extension)) continue;
    const key = kind === 'font' ? path.basename(name, path.extname(name)) : name;
    files.set(key, new Uint8Array(await readFile(path.join(dir, name))));
  }
  return files;
}
