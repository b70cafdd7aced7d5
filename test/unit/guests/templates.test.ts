import { describe, expect, it } from 'vitest';
import { templateVariables } from '../../../shared/api/guests.js';
import {
  formatDate,
  formatTime,
  joinList,
  templateValues,
} from '../../../main/areas/guests/template-values.js';
import {
  defaultTemplates,
  defaultTemplateSettings,
  renderTemplate,
  renderText,
  unknownVariables,
} from '../../../main/areas/guests/templates.js';

describe('email templates (spec §1.10)', () => {
  it('replaces {{variables}}, tolerating inner spaces', () => {
    expect(renderText('Hi {{name}}, see you {{ date }}.', { name: 'Ada', date: 'Monday' })).toEqual({
      text: 'Hi Ada, see you Monday.',
      unknown: [],
      missing: [],
    });
  });

  it('lists unknown variables (kept as written) and variables without a value (rendered empty)', () => {
    const rendered = renderText('{{hots}} and {{name}} on {{date}} {{hots}}', { name: 'Ada', date: null });
    expect(rendered).toEqual({ text: '{{hots}} and Ada on  {{hots}}', unknown: ['hots'], missing: ['date'] });
    expect(unknownVariables('{{name}} {{Name}} {{publish-date}} {{ show }}')).toEqual([
      'Name',
      'publish-date',
    ]);
  });

  it('has three default templates that use only the twelve variables, and all twelve between them', () => {
    const used = new Set<string>();
    for (const template of Object.values(defaultTemplates)) {
      for (const part of [template.subject, template.body]) {
        expect(unknownVariables(part)).toEqual([]);
        for (const match of part.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) used.add(match[1] as string);
      }
    }
    expect([...used].sort()).toEqual([...templateVariables].sort());
  });

  it('renders date and time in the guest’s time zone', () => {
    const at = '2026-05-12T13:00:00.000Z';
    expect(formatDate(at, 'Europe/Berlin')).toBe('Tuesday 12 May 2026');
    expect(formatTime(at, 'Europe/Berlin')).toBe('15:00');
    expect(formatTime(at, 'Asia/Tokyo')).toBe('22:00');
    // Past midnight in Tokyo: the date moves too.
    expect(formatDate('2026-05-12T16:30:00.000Z', 'Asia/Tokyo')).toBe('Wednesday 13 May 2026');
    expect(joinList(['Videosite', 'Altvideo', 'Streamhost'])).toBe('Videosite, Altvideo and Streamhost');
  });

  it('takes values from the guest, the content and the template settings', () => {
    const { values, notes } = templateValues({
      guest: {
        name: 'Lena Hoffmann',
        topics: 'slow media, print',
        scheduledDate: '2026-05-12T13:00:00.000Z',
        timezone: 'Europe/Berlin',
      },
      content: {
        name: 'Designing for Slow Media',
        showName: 'The Studio Hour',
        platforms: ['Videosite', 'Altvideo'],
      },
      publishAt: '2026-05-19T08:00:00.000Z',
      settings: defaultTemplateSettings,
    });
    expect(values).toEqual({
      name: 'Lena Hoffmann',
      show: 'The Studio Hour',
      topic: 'slow media, print',
      audience_size: defaultTemplateSettings.audienceSize,
      subject: 'Designing for Slow Media',
      duration: defaultTemplateSettings.duration,
      host: defaultTemplateSettings.host,
      date: 'Tuesday 12 May 2026',
      time: '15:00',
      timezone: 'Europe/Berlin',
      platform: 'Videosite and Altvideo',
      publish_date: 'Tuesday 19 May 2026',
    });
    expect(notes).toEqual([]);
  });

  it('falls back to UTC, the settings and an estimated publish date, and says so', () => {
    const { values, notes } = templateValues({
      guest: { name: 'Priya', scheduledDate: '2026-05-12T13:00:00.000Z', timezone: 'Mars/Olympus' },
      content: null,
      publishAt: null,
      settings: { ...defaultTemplateSettings, publishLagDays: 3 },
    });
    expect(values).toMatchObject({
      time: '13:00',
      timezone: 'UTC',
      subject: null,
      topic: null,
      show: defaultTemplateSettings.show,
      platform: defaultTemplateSettings.platform,
      publish_date: 'Friday 15 May 2026',
    });
    expect(notes.join(' | ')).toContain('"Mars/Olympus" is not an IANA zone name');
    expect(notes.join(' | ')).toContain('recording date + 3 days');
  });

  it('renders a whole template, subject on one line', () => {
    const out = renderTemplate(
      { subject: 'Confirmed:  {{show}}\n on {{date}}', body: 'Hi {{name}} {{subject}}' },
      { show: 'Show', date: 'Monday', name: 'Ada', subject: null },
    );
    expect(out).toEqual({
      subject: 'Confirmed: Show on Monday',
      body: 'Hi Ada ',
      unknown: [],
      missing: ['subject'],
    });
  });
});
