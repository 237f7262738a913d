/**
 * Calendar dates: year, month, day and a wall-clock time, with no time zone. A date cell of 5 March
 * prints 5 March in every zone; Date objects are read by their UTC fields, the convention the engine
 * uses for spreadsheet dates (see excelSerialToDate).
 */
export interface CalendarDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const MS_PER_DAY = 86_400_000;
const SECONDS_PER_DAY = 86_400;
/** Day 0 of the 1900 system for serials from 61 on (Excel counts a 29 February 1900 that never was). */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
/** Day 0 for serials 1 to 59, before the phantom leap day. */
const EPOCH_1900_EARLY = Date.UTC(1899, 11, 31);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
const PHANTOM_LEAP_DAY = 60;
/** 31 December 9999, Excel's last date. */
export const MAX_EXCEL_SERIAL = 2_958_465;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Whether the parts make a real date and time (years 1 to 9999). */
export function isValidCalendarDate(date: CalendarDate): boolean {
  return (
    date.year >= 1 &&
    date.year <= 9999 &&
    date.month >= 1 &&
    date.month <= 12 &&
    date.day >= 1 &&
    date.day <= daysInMonth(date.year, date.month) &&
    date.hour >= 0 &&
    date.hour <= 23 &&
    date.minute >= 0 &&
    date.minute <= 59 &&
    date.second >= 0 &&
    date.second <= 59
  );
}

/** 0 = Sunday. */
export function weekday(date: CalendarDate): number {
  const utc = new Date(0);
  utc.setUTCFullYear(date.year, date.month - 1, date.day); // setUTCFullYear keeps years 0-99 as written
  return utc.getUTCDay();
}

export function calendarDateOf(date: Date): CalendarDate | undefined {
  if (Number.isNaN(date.getTime())) return undefined;
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

/**
 * An Excel serial date (days since 1899-12-30, or since 1904-01-01 in the 1904 system; a fraction is
 * the time of day, rounded to the second) as a calendar date, or undefined outside Excel's range.
 * Serial 60 of the 1900 system is Excel's 29 February 1900.
 */
export function serialToCalendarDate(serial: number, date1904 = false): CalendarDate | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial >= MAX_EXCEL_SERIAL + 1) return undefined;
  let days = Math.floor(serial);
  let seconds = Math.round((serial - days) * SECONDS_PER_DAY);
  if (seconds === SECONDS_PER_DAY) {
    days++;
    seconds = 0;
  }
  const hour = Math.floor(seconds / 3600);
  const minute = Math.floor((seconds % 3600) / 60);
  const second = seconds % 60;
  if (!date1904 && days === PHANTOM_LEAP_DAY) return { year: 1900, month: 2, day: 29, hour, minute, second };
  const epoch = date1904 ? EPOCH_1904 : days < PHANTOM_LEAP_DAY ? EPOCH_1900_EARLY : EPOCH_1900;
  const date = calendarDateOf(new Date(epoch + days * MS_PER_DAY))!;
  return { ...date, hour, minute, second };
}

/**
 * An Excel serial date as a Date at that wall-clock time in UTC (5 March 2024 -> 2024-03-05T00:00Z).
 * Serial 60 of the 1900 system, Excel's nonexistent 29 February 1900, becomes 1 March 1900.
 * Serials outside Excel's range give an invalid Date.
 */
export function excelSerialToDate(serial: number, date1904 = false): Date {
  const date = serialToCalendarDate(serial, date1904);
  if (!date) return new Date(Number.NaN);
  return new Date(Date.UTC(date.year, date.month - 1, date.day, date.hour, date.minute, date.second));
}
