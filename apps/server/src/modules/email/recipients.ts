/**
 * Recipient addresses of a row: a cell may hold several addresses separated by commas, semicolons or
 * whitespace ("a@x.com; b@y.org"), optionally in angle brackets ("Ann <a@x.com>" keeps the address).
 */
import { addressesOf, type RecipientsCheck } from '@sheaf/shared';
import type { SheetData } from '@sheaf/engine';

// The address rule is the shared one (packages/shared/src/rules/recipients.ts).
export { addressesOf, type CellAddresses } from '@sheaf/shared';

const MAX_INVALID_EXAMPLES = 10;

/** Counts valid and invalid To addresses over the given data rows (docs/email.md#recipients). */
export function checkRecipients(sheet: SheetData, column: number, rows: Iterable<number>): RecipientsCheck {
  const result: RecipientsCheck = { rows: 0, valid: 0, invalid: 0, rowsWithoutRecipient: 0, invalidExamples: [] };
  for (const row of rows) {
    result.rows += 1;
    const { valid, invalid } = addressesOf(sheet.text(row, column));
    result.valid += valid.length;
    result.invalid += invalid.length;
    if (valid.length === 0) {
      result.rowsWithoutRecipient += 1;
      // An empty cell counts as a row without recipient but not as an invalid address.
      if (invalid.length === 0 && result.invalidExamples.length < MAX_INVALID_EXAMPLES) {
        result.invalidExamples.push({ rowNumber: sheet.rowNumber(row), value: '' });
      }
    }
    for (const value of invalid) {
      if (result.invalidExamples.length >= MAX_INVALID_EXAMPLES) break;
      result.invalidExamples.push({ rowNumber: sheet.rowNumber(row), value: value.slice(0, 200) });
    }
  }
  return result;
}
