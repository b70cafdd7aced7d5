/** Number and date formats of the analytics page (dates are UTC days). */
const whole = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const oneDecimal = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat(undefined, {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const monthYear = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });
const fullDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export const formatWhole = (value: number): string => whole.format(value);
export const formatCompact = (value: number): string => compact.format(value);
export const formatHours = (value: number): string => oneDecimal.format(value);
export const formatRate = (value: number): string => percent.format(value);

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
/** Axis label: "5 Mar", or "Mar 2025" on long ranges. */
export const formatAxisDay = (day: string, long: boolean): string =>
  (long ? monthYear : dayMonth).format(asDate(day));
export const formatDay = (day: string): string => fullDay.format(asDate(day));

/** Fixed colour per platform, so a platform looks the same in every chart. */
const palette: Record<string, string> = {
  microblog: '#1d9bf0',
  socialnet: '#3b5bdb',
  photogram: '#d6336c',
  professional: '#0b7a75',
  videosite: '#e03131',
  shortvideo: '#111827',
  pinboard: '#f08c00',
  altvideo: '#7048e8',
  streamhost: '#5c940d',
};
const spare = ['#868e96', '#a61e4d', '#1864ab', '#2b8a3e', '#e8590c'];

export function platformColor(platform: string, index = 0): string {
  return palette[platform] ?? spare[index % spare.length] ?? '#868e96';
}

export const platformLabel = (platform: string): string =>
  platform.charAt(0).toUpperCase() + platform.slice(1);
