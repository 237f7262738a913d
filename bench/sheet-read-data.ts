/**
 * The sheet-read workload's input: a realistic mail-merge list (names, emails, addresses, amounts,
 * dates, flags) of N rows x 20 columns, written once by exceljs's streaming writer with shared
 * strings and styles, the way Excel stores such a list. Deterministic (seeded), cached on disk.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';

const FIRST = ['Anna', 'Ben', 'Chloé', 'David', 'Elif', 'François', 'Grace', 'Hiro', 'Inès', 'Jonas', 'Karin', 'Liam', 'Mía', 'Noah', 'Olga', 'Pedro', 'Quinn', 'Rosa', 'Søren', 'Tanja', 'Uwe', 'Vera', 'Wei', 'Xenia', 'Yusuf', 'Zoë'];
const LAST = ['Müller', 'Smith', 'García', 'Dubois', 'Rossi', 'Nowak', 'Jensen', 'Tanaka', 'Schmidt', 'Brown', 'Martin', 'Kowalski', 'Silva', 'Novák', 'Öztürk', 'Li', 'Johansson', 'Fischer', 'Moreau', 'Wagner'];
const CITIES = ['Berlin', 'Paris', 'Madrid', 'London', 'München', 'Lyon', 'Sevilla', 'Zürich', 'Wien', 'Kraków', 'København', 'Porto', 'Milano', 'Gent', 'Brno'];
const COUNTRIES = ['DE', 'FR', 'ES', 'GB', 'CH', 'AT', 'PL', 'DK', 'PT', 'IT', 'BE', 'CZ'];
const STREETS = ['Hauptstraße', 'Rue de la Paix', 'Calle Mayor', 'High Street', 'Bahnhofstrasse', 'Via Roma', 'Main Road', 'Ringstraße'];
const STATUS = ['paid', 'open', 'overdue', 'cancelled'];
const PLANS = ['Free', 'Pro', 'Enterprise', 'Offline'];

export const SHEET_COLUMNS = [
  'Customer ID', 'First name', 'Last name', 'Email', 'Phone', 'Company', 'Street', 'City', 'Postcode', 'Country',
  'Plan', 'Invoice date', 'Due date', 'Amount', 'Quantity', 'Unit price', 'Discount', 'Status', 'Subscribed', 'Notes',
];

/** Mulberry32: small, fast, deterministic. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function writeWorkbook(file: string, rows: number): Promise<void> {
  const random = randomSource(20_240_601);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Customers');
  sheet.columns = SHEET_COLUMNS.map((header) => ({ header, key: header }));
  sheet.getColumn(12).numFmt = 'dd/mm/yyyy';
  sheet.getColumn(13).numFmt = 'yyyy-mm-dd';
  sheet.getColumn(14).numFmt = '"€"#,##0.00';
  sheet.getColumn(16).numFmt = '0.00';
  sheet.getColumn(17).numFmt = '0%';
  const day = 86_400_000;
  const start = Date.UTC(2022, 0, 1);
  for (let index = 0; index < rows; index++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const invoice = new Date(start + Math.floor(random() * 900) * day);
    sheet
      .addRow([
        100_000 + index,
        first,
        last,
        `${first}.${last}${index}@example.com`.toLowerCase(),
        `+49 30 ${Math.floor(1_000_000 + random() * 8_999_999)}`,
        `${pick(LAST)} ${pick(['GmbH', 'SARL', 'S.L.', 'Ltd', 'AG'])}`,
        `${pick(STREETS)} ${1 + Math.floor(random() * 200)}, apt. ${1 + Math.floor(random() * 90)}`,
        pick(CITIES),
        String(10_000 + Math.floor(random() * 89_999)),
        pick(COUNTRIES),
        pick(PLANS),
        invoice,
        new Date(invoice.getTime() + 30 * day),
        Math.round(random() * 1_000_000) / 100,
        1 + Math.floor(random() * 50),
        Math.round(random() * 50_000) / 100,
        Math.floor(random() * 4) * 0.05,
        pick(STATUS),
        random() < 0.5,
        random() < 0.7
          ? `Order ${Math.floor(random() * 1_000_000)}: call back before ${new Date(invoice.getTime() + 14 * day).toISOString().slice(0, 10)}, ref ${Math.floor(random() * 2 ** 48).toString(36).toUpperCase()}`
          : '',
      ])
      .commit();
  }
  sheet.commit();
  await workbook.commit();
}

/** Path of the cached workbook of `rows` rows in `dir`, generated on first use. */
export async function benchWorkbook(dir: string, rows: number): Promise<string> {
  const file = path.join(dir, `sheet-read-${rows}x${SHEET_COLUMNS.length}.xlsx`);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const partial = `${file}.partial`;
  await writeWorkbook(partial, rows);
  await rename(partial, file);
  return file;
}
