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
/** "+1.2K", "−300", "0": a change, its sign always shown. */
export const formatSignedCompact = (value: number): string =>
  value > 0 ? `+${compact.format(value)}` : value < 0 ? `−${compact.format(-value)}` : '0';
export const formatSignedWhole = (value: number): string =>
  value > 0 ? `+${whole.format(value)}` : value < 0 ? `−${whole.format(-value)}` : '0';
export const formatHours = (value: number): string => oneDecimal.format(value);
export const formatRate = (value: number): string => percent.format(value);

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
/** Axis label: "5 Mar", or "Mar 2025" on long ranges. */
export const formatAxisDay = (day: string, long: boolean): string =>
  (long ? monthYear : dayMonth).format(asDate(day));
export const formatDay = (day: string): string => fullDay.format(asDate(day));

export const platformLabel = (platform: string): string =>
  platform.charAt(0).toUpperCase() + platform.slice(1);
