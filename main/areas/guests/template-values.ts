import type { TemplateSettings, TemplateVariable } from '../../../shared/api/guests.js';

/** What the values are made from: the guest, its linked content and the studio's settings. */
export interface TemplateSources {
  /** The GuestBooking record: name, topics, scheduledDate, timezone are read. */
  guest: Readonly<Record<string, unknown>>;
  content: { name?: unknown; showName?: unknown; platforms?: unknown } | null;
  /** When the episode goes out: from the content's publishing records (ISO), if any. */
  publishAt: string | null;
  settings: TemplateSettings;
}

export interface TemplateValues {
  values: Record<TemplateVariable, string | null>;
  /** Where a value was estimated or defaulted, for the preview. */
  notes: string[];
}

const DAY_MS = 86_400_000;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** "Tuesday 12 May 2026" in the zone (assembled from parts: ICU versions differ in punctuation). */
export function formatDate(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')}`;
}

/** "15:00" in the zone. */
export function formatTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** "Videosite", "Videosite and Altvideo", "A, B and C". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The twelve variables of spec §1.10 for one guest. From the CRM: name, topic (the guest's
 * topics), subject (the linked content's name), show (its showName), platform (its platforms),
 * date/time/timezone (the guest's scheduledDate in the guest's time zone), publish_date (the
 * content's first publishing record). From the template settings: host, audience_size,
 * duration, and the fallbacks for show, platform and publish_date.
 */
export function templateValues(sources: TemplateSources): TemplateValues {
  const { guest, content, settings } = sources;
  const notes: string[] = [];
  const zoneName = text(guest.timezone);
  let zone = 'UTC';
  if (zoneName && isTimeZone(zoneName)) zone = zoneName;
  else if (zoneName) notes.push(`time zone "${zoneName}" is not an IANA zone name: date and time are in UTC`);
  else notes.push('the guest has no time zone: date and time are in UTC');

  const scheduled = text(guest.scheduledDate);
  const scheduledOk = scheduled !== null && !Number.isNaN(Date.parse(scheduled));

  let publishAt = sources.publishAt;
  if (publishAt === null && scheduledOk) {
    publishAt = new Date(Date.parse(scheduled) + settings.publishLagDays * DAY_MS).toISOString();
    notes.push(
      `publish date estimated: recording date + ${settings.publishLagDays} days (template settings)`,
    );
  }

  const platforms = Array.isArray(content?.platforms)
    ? content.platforms.filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    : [];
  const show = text(content?.showName);
  if (!show) notes.push('show: from the template settings (the content has no show name)');
  if (platforms.length === 0)
    notes.push('platform: from the template settings (the content has no platforms)');

  return {
    values: {
      name: text(guest.name),
      show: show ?? text(settings.show),
      topic: text(guest.topics),
      audience_size: text(settings.audienceSize),
      subject: text(content?.name),
      duration: text(settings.duration),
      host: text(settings.host),
      date: scheduledOk ? formatDate(scheduled, zone) : null,
      time: scheduledOk ? formatTime(scheduled, zone) : null,
      timezone: zone,
      platform: platforms.length > 0 ? joinList(platforms) : text(settings.platform),
      publish_date: publishAt ? formatDate(publishAt, zone) : null,
    },
    notes,
  };
}
