// The cold-start peer: a plain Node script (no compiler, no tsx) that does a one-row merge with pdf-lib:
// load the template, draw the row's 3 values, save one PDF. Timed from outside, start-up included.
// Usage: node pdf-lib-one-row.mjs <template.pdf> <fields.json> <row.json> <out.pdf>
import { readFileSync, writeFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const [templatePath, fieldsPath, rowPath, outPath] = process.argv.slice(2);
const fields = JSON.parse(readFileSync(fieldsPath, 'utf8'));
const row = JSON.parse(readFileSync(rowPath, 'utf8'));
const doc = await PDFDocument.load(readFileSync(templatePath));
const font = await doc.embedFont(StandardFonts.Helvetica);
for (const field of fields) doc.getPage(field.page).drawText(row[field.column], { x: field.x, y: field.y, size: field.size, font });
writeFileSync(outPath, await doc.save());
