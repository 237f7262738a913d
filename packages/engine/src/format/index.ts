export { formatNumber, readNumber } from './formatNumber.ts';
export { formatDate, readDate } from './formatDate.ts';
export { excelSerialToDate, type CalendarDate } from './calendarDate.ts';
export { parseNumberText } from './parseNumber.ts';
export { parseDateText } from './parseDate.ts';
export { cellText } from './cellText.ts';
