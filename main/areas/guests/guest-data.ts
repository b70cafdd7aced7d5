import type { EmailMoment, EmailTemplate, TemplateSettings } from '../../../shared/api/guests.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import { templateValues } from './template-values.js';
import { renderTemplate } from './templates.js';

export interface LinkedContent {
  id: string;
  name: string | null;
  scheduledDate: string | null;
  showName: string | null;
  platforms: string[];
}

export interface RenderedEmail {
  moment: EmailMoment;
  to: string | null;
  subject: string;
  body: string;
  values: Record<string, string | null>;
  unknownVariables: string[];
  missingValues: string[];
  notes: string[];
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The guest's linked ContentProduction (name, scheduledDate, show, platforms), or null. */
export async function linkedContent(crm: CrmClient, guest: CrmRecord): Promise<LinkedContent | null> {
  const contentId = textOrNull(guest.contentProductionId);
  if (!contentId) return null;
  const content = await crm.find('ContentProduction', contentId);
  if (!content) return null;
  return {
    id: content.id,
    name: textOrNull(content.name),
    scheduledDate: textOrNull(content.scheduledDate),
    showName: textOrNull(content.showName),
    platforms: Array.isArray(content.platforms)
      ? content.platforms.filter((p): p is string => typeof p === 'string')
      : [],
  };
}

/** When the content goes out: the earliest publishedAt or scheduledAt of its PlatformPublish records. */
export async function publishDateOf(crm: CrmClient, contentId: string): Promise<string | null> {
  const { list } = await crm.list('PlatformPublish', {
    where: [{ type: 'equals', attribute: 'contentProductionId', value: contentId }],
    maxSize: 50,
  });
  let earliest: string | null = null;
  for (const record of list) {
    const at = textOrNull(record.publishedAt) ?? textOrNull(record.scheduledAt);
    if (at && !Number.isNaN(Date.parse(at)) && (earliest === null || Date.parse(at) < Date.parse(earliest)))
      earliest = at;
  }
  return earliest;
}

/** Renders one moment's template for a guest with the CRM's data (reads publishing records only when used). */
export async function renderEmailFor(
  crm: CrmClient,
  input: {
    guest: CrmRecord;
    content: LinkedContent | null;
    moment: EmailMoment;
    template: EmailTemplate;
    settings: TemplateSettings;
  },
): Promise<RenderedEmail> {
  const { guest, content, moment, template, settings } = input;
  const usesPublishDate = /\{\{\s*publish_date\s*\}\}/.test(template.subject + template.body);
  const publishAt = usesPublishDate && content ? await publishDateOf(crm, content.id) : null;
  const { values, notes } = templateValues({ guest, content, publishAt, settings });
  const rendered = renderTemplate(template, values);
  return {
    moment,
    to: textOrNull(guest.email),
    subject: rendered.subject,
    body: rendered.body,
    values,
    unknownVariables: rendered.unknown,
    missingValues: rendered.missing,
    notes: usesPublishDate ? notes : notes.filter((note) => !note.startsWith('publish date')),
  };
}
