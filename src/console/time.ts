// How the console writes a time: 24-hour UTC everywhere (the top bar says so once), built from
// the ISO form so it reads the same in every browser, locale and time zone.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const iso = (at: string | number | Date): string => new Date(at).toISOString();

/** `2026-11-29 14:05:09` */
export const utcDateTime = (at: string | number | Date): string => {
  const text = iso(at);
  return `${text.slice(0, 10)} ${text.slice(11, 19)}`;
};

/** `14:05:09` */
export const utcTime = (at: string | number | Date): string => iso(at).slice(11, 19);

/** `14:05` */
export const utcHourMinute = (at: string | number | Date): string => iso(at).slice(11, 16);

/** `29 Nov` */
export const utcDayMonth = (at: string | number | Date): string => {
  const date = new Date(at);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
};

/**
 * A time field's value (`YYYY-MM-DD HH:mm`) for an instant, in UTC. A text field, not
 * datetime-local, whose browser-drawn value follows the reader's locale (12-hour in en-US).
 */
export const utcInputValue = (at: Date): string => utcDateTime(at).slice(0, 16);

/** The instant a time field names (`YYYY-MM-DD HH:mm[:ss]`, or with a `T`), read as UTC (Invalid Date when it is not one). */
export const fromUtcInputValue = (value: string): Date => {
  const text = value.trim();
  return new Date(/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(text) ? `${text.replace(' ', 'T')}Z` : 'invalid');
};
