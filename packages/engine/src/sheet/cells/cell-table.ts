/**
 * Compact cell storage shared by every reader: a sheet of 2,000,000 cells costs a few typed arrays,
 * never an object per cell. Rows are stored sparsely: each row keeps its Excel number and the range
 * of its cells. Each cell keeps its column (1 byte while columns stay below 256), its kind and number
 * format (one 16-bit word), and its number (4 bytes when a 32-bit float holds it exactly, as string
 * indexes, whole numbers and dates do; else an index into a table of doubles): about 7 bytes a cell
 * for a typical sheet, plus a second 4-byte slot for the readers that need one (see CellKind).
 */
import { SheafError } from '@sheaf/shared';
import { MAX_COLUMNS, limitsExceeded } from '../limits.ts';

/** What a cell holds and how its slots (num, aux) are read. */
export const CellKind = {
  /** num: the number, shown with the cell's format. */
  Number: 0,
  /** num: the date's serial number (Excel days), shown with the cell's format. */
  Date: 1,
  /** num: index into the string table. */
  String: 2,
  /** num: 1 for TRUE, 0 for FALSE. */
  Boolean: 3,
  /** num: the number; aux: index of its display text in the string table (text a library formatted). */
  NumberWithText: 4,
  /** num: the date's serial number; aux: index of its display text in the string table. */
  DateWithText: 5,
  /** CSV field: num..aux is its range in the decoded source text. */
  CsvField: 6,
  /** CSV field with doubled quotes or CR line ends inside: num..aux as above, read unescaped. */
  CsvQuotedField: 7,
} as const;
export type CellKind = (typeof CellKind)[keyof typeof CellKind];

/** A cell's meta word: its kind in the low 3 bits, DOUBLE_FLAG, then its format index (into the sheet's formats). */
export const KIND_MASK = 0x7;
/** Set when the cell's number lives in `doubles` (its 32-bit slot then holds the index). */
const DOUBLE_FLAG = 0x8;
export const FORMAT_SHIFT = 4;
/** Format indexes fit the 12 remaining bits; Excel allows a few hundred number formats. */
export const MAX_FORMATS = 1 << 12;

/** The finished table: rows sorted by Excel row number, only rows from the header row on that hold a value. */
export interface CellTable {
  readonly rowCount: number;
  readonly rowNumbers: Int32Array;
  /** Row r's cells are [rowStarts[r], rowStarts[r + 1]), in column order. */
  readonly rowStarts: Int32Array;
  readonly columns: Uint8Array | Uint16Array;
  /** Kind, number location and format index, see KIND_MASK. */
  readonly metas: Uint16Array;
  /** The number as a 32-bit float, or (DOUBLE_FLAG) the index of its entry in doubles: read them with cellNumber. */
  readonly singles: Float32Array;
  readonly indexes: Uint32Array;
  readonly doubles: Float64Array;
  /** The second slot, for readers created with one. */
  readonly auxes: Uint32Array | undefined;
  /** Highest Excel row number holding a value anywhere in the sheet (0: the sheet has no values). */
  readonly lastRowNumber: number;
  /** Data rows (non-empty rows after the header row). */
  readonly dataRowCount: number;
}

const INITIAL_CELLS = 4096;
/** Up-front allocation a sheet's own size claim can ask for: 4,000,000 cells (about 60 MB). */
const MAX_RESERVED_CELLS = 4_000_000;
const INITIAL_ROWS = 256;

/** A cell's number, wherever it is stored. */
export function cellNumber(table: CellTable, cell: number): number {
  return table.metas[cell]! & DOUBLE_FLAG ? table.doubles[table.indexes[cell]!]! : table.singles[cell]!;
}

export class CellTableBuilder {
  private columns: Uint8Array | Uint16Array = new Uint8Array(INITIAL_CELLS);
  private metas = new Uint16Array(INITIAL_CELLS);
  private singles = new Float32Array(INITIAL_CELLS);
  /** The same memory as singles, for cells whose slot holds an index into doubles. */
  private indexes = new Uint32Array(this.singles.buffer);
  private doubles = new Float64Array(1024);
  private doubleCount = 0;
  private auxes: Uint32Array | undefined;
  private cellCount = 0;
  private rowNumbers = new Int32Array(INITIAL_ROWS);
  private rowStarts = new Int32Array(INITIAL_ROWS + 1);
  private rowCount = 0;
  private rowNumber = 0;
  private rowStart = 0;
  private lastColumn = -1;
  private inOrder = true;
  private lastRowNumber = 0;
  private dataRowCount = 0;

  /**
   * headerRow: Excel number of the header row; rows above it are only noted, not stored.
   * withAux: keep the second slot (aux) of every cell.
   */
  constructor(
    private readonly headerRow: number,
    private readonly maxRows: number,
    withAux = false,
  ) {
    if (withAux) this.auxes = new Uint32Array(INITIAL_CELLS);
  }

  /**
   * Sizes the cell arrays for about `cells` cells before the first one (estimated from the sheet's
   * size), so a large sheet is not copied while it grows. Capped: the file claims that size, and
   * memory the sheet does not fill is never touched.
   */
  reserve(cells: number): void {
    const capacity = Math.max(INITIAL_CELLS, Math.min(Math.floor(cells), MAX_RESERVED_CELLS));
    if (this.cellCount > 0 || capacity <= this.columns.length) return;
    this.columns = new Uint8Array(capacity);
    this.metas = new Uint16Array(capacity);
    this.singles = new Float32Array(capacity);
    this.indexes = new Uint32Array(this.singles.buffer);
    if (this.auxes) this.auxes = new Uint32Array(capacity);
  }

  /** Starts row `rowNumber` (1-based Excel number). */
  startRow(rowNumber: number): void {
    this.rowNumber = rowNumber;
    this.rowStart = this.cellCount;
    this.lastColumn = -1;
  }

  /** Adds a non-empty cell to the current row. Columns are 0-based; format indexes the sheet's formats. */
  addCell(column: number, kind: CellKind, format: number, num: number, aux = 0): void {
    if (column >= MAX_COLUMNS) throw limitsExceeded(`more than ${MAX_COLUMNS} columns`);
    if (this.rowNumber < this.headerRow) {
      this.lastRowNumber = Math.max(this.lastRowNumber, this.rowNumber);
      return;
    }
    let at = this.cellCount;
    if (at === this.columns.length) this.growCells();
    if (column > 0xff && this.columns instanceof Uint8Array) this.widenColumns();
    if (column <= this.lastColumn) at = this.placeOutOfOrder(column);
    else this.lastColumn = column;
    this.columns[at] = column;
    const single = Math.fround(num);
    if (single === num) {
      this.singles[at] = single;
      this.metas[at] = kind | (format << FORMAT_SHIFT);
    } else {
      this.indexes[at] = this.addDouble(num);
      this.metas[at] = kind | DOUBLE_FLAG | (format << FORMAT_SHIFT);
    }
    if (this.auxes) this.auxes[at] = aux;
    this.cellCount++;
  }

  /** Ends the current row; an empty row leaves no trace. Throws as soon as the data rows exceed maxRows. */
  endRow(): void {
    if (this.cellCount === this.rowStart) return;
    const rowNumber = this.rowNumber;
    if (rowNumber > this.lastRowNumber) this.lastRowNumber = rowNumber;
    if (rowNumber > this.headerRow && ++this.dataRowCount > this.maxRows) {
      throw new SheafError('sheet/too-many-rows', { max: this.maxRows });
    }
    if (this.rowCount + 1 >= this.rowNumbers.length) this.growRows();
    if (this.rowCount > 0 && rowNumber <= this.rowNumbers[this.rowCount - 1]!) this.inOrder = false;
    this.rowNumbers[this.rowCount] = rowNumber;
    this.rowStarts[this.rowCount] = this.rowStart;
    this.rowCount++;
    this.rowStarts[this.rowCount] = this.cellCount;
  }

  finish(): CellTable {
    const table: CellTable = {
      rowCount: this.rowCount,
      rowNumbers: this.rowNumbers.subarray(0, this.rowCount),
      rowStarts: this.rowStarts.subarray(0, this.rowCount + 1),
      columns: this.columns.subarray(0, this.cellCount),
      metas: this.metas.subarray(0, this.cellCount),
      singles: this.singles.subarray(0, this.cellCount),
      indexes: this.indexes.subarray(0, this.cellCount),
      doubles: this.doubles.subarray(0, this.doubleCount),
      auxes: this.auxes?.subarray(0, this.cellCount),
      lastRowNumber: this.lastRowNumber,
      dataRowCount: this.dataRowCount,
    };
    return this.inOrder ? table : sortRows(table);
  }

  /** A column written out of order (or twice): keep the row sorted; a repeated column keeps its last value. */
  private placeOutOfOrder(column: number): number {
    let at = this.cellCount;
    while (at > this.rowStart && this.columns[at - 1]! >= column) at--;
    if (at < this.cellCount && this.columns[at] === column) {
      this.cellCount--; // overwritten in place, not appended
      return at;
    }
    this.columns.copyWithin(at + 1, at, this.cellCount);
    this.metas.copyWithin(at + 1, at, this.cellCount);
    this.singles.copyWithin(at + 1, at, this.cellCount);
    this.auxes?.copyWithin(at + 1, at, this.cellCount);
    return at;
  }

  /** The first column beyond 255: columns take two bytes from now on. */
  private widenColumns(): void {
    const wide = new Uint16Array(this.columns.length);
    wide.set(this.columns);
    this.columns = wide;
  }

  private addDouble(value: number): number {
    if (this.doubleCount === this.doubles.length) this.doubles = grown(this.doubles, new Float64Array(this.doubles.length * 2));
    this.doubles[this.doubleCount] = value;
    return this.doubleCount++;
  }

  private growCells(): void {
    const size = this.columns.length * 2;
    this.columns = grown(this.columns, this.columns instanceof Uint8Array ? new Uint8Array(size) : new Uint16Array(size));
    this.metas = grown(this.metas, new Uint16Array(size));
    this.singles = grown(this.singles, new Float32Array(size));
    this.indexes = new Uint32Array(this.singles.buffer);
    if (this.auxes) this.auxes = grown(this.auxes, new Uint32Array(size));
  }

  private growRows(): void {
    const size = this.rowNumbers.length * 2;
    this.rowNumbers = grown(this.rowNumbers, new Int32Array(size));
    this.rowStarts = grown(this.rowStarts, new Int32Array(size + 1));
  }
}

function grown<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

/** Rows written out of order (legal, rare): reorder by Excel number, keeping equal numbers in file order. */
function sortRows(table: CellTable): CellTable {
  const order = Array.from({ length: table.rowCount }, (_, row) => row);
  order.sort((a, b) => table.rowNumbers[a]! - table.rowNumbers[b]! || a - b);
  const cellCount = table.columns.length;
  const sorted = {
    ...table,
    rowNumbers: new Int32Array(table.rowCount),
    rowStarts: new Int32Array(table.rowCount + 1),
    columns: table.columns instanceof Uint8Array ? new Uint8Array(cellCount) : new Uint16Array(cellCount),
    metas: new Uint16Array(cellCount),
    singles: new Float32Array(cellCount),
    auxes: table.auxes && new Uint32Array(cellCount),
  };
  const indexes = new Uint32Array(sorted.singles.buffer);
  let cell = 0;
  order.forEach((from, row) => {
    const start = table.rowStarts[from]!;
    const end = table.rowStarts[from + 1]!;
    sorted.rowNumbers[row] = table.rowNumbers[from]!;
    sorted.rowStarts[row] = cell;
    sorted.columns.set(table.columns.subarray(start, end), cell);
    sorted.metas.set(table.metas.subarray(start, end), cell);
    indexes.set(table.indexes.subarray(start, end), cell); // the raw 32 bits, float or index alike
    sorted.auxes?.set(table.auxes!.subarray(start, end), cell);
    cell += end - start;
  });
  sorted.rowStarts[table.rowCount] = cell;
  return { ...sorted, indexes };
}
