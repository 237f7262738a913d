/**
 * The engine's SheetData <-> plain arrays conversion, for moving a parsed sheet out of a worker.
 * @sheaf/engine does not export its sheet module's transfer helpers from the package root; until it
 * does, this one file reaches into the engine's source for them.
 */
export { fromTransferableSheet, toTransferableSheet, type TransferableSheet } from '../../../../../packages/engine/src/sheet/transfer.ts';
