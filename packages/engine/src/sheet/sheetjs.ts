/**
 * SheetJS (@e965/xlsx, about 1 MB of JavaScript) loaded on first use: every process that imports the
 * engine (`sheaf serve` at start above all) would otherwise parse it whether or not it reads a sheet.
 * The readers are synchronous, so it is required (its CommonJS build, the same library) rather than
 * imported; once loaded, every call gets the same module.
 */
import { createRequire } from 'node:module';

type SheetJs = typeof import('@e965/xlsx');

let sheetJs: SheetJs | undefined;

export function loadSheetJs(): SheetJs {
  sheetJs ??= createRequire(import.meta.url)('@e965/xlsx') as SheetJs;
  return sheetJs;
}
