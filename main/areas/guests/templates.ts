import {
  templateVariables,
  type EmailTemplate,
  type TemplateSet,
  type TemplateSettings,
  type TemplateVariable,
} from '../../../shared/api/guests.js';

/** Default texts of the three moments of spec §1.10; the operator edits them on the Guests page. */
export const defaultTemplates: TemplateSet = {
  outreach: {
    subject: 'An invitation to {{show}}',
    body: [
      'Hi {{name}},',
      '',
      "I'm {{host}}, host of {{show}}. I have been following your work on {{topic}} and would love to have you on the show.",
      '',
      '{{show}} reaches {{audience_size}} on {{platform}}. A conversation takes about {{duration}} and is recorded remotely at a time that suits you.',
      '',
      'Would you be open to it? Just reply to this email and we will find a date.',
      '',
      'Best wishes,',
      '{{host}}',
    ].join('\n'),
  },
  confirmation: {
    subject: 'Confirmed: {{show}} on {{date}}',
    body: [
      'Hi {{name}},',
      '',
      'Thank you for saying yes! Here are the details of our recording:',
      '',
      'Episode: {{subject}}',
      'Date: {{date}}',
      'Time: {{time}} ({{timezone}})',
      'Length: about {{duration}}',
      '',
      'We will talk about {{topic}}. I will send a few prep notes before the day.',
      '',
      'See you soon,',
      '{{host}}',
    ].join('\n'),
  },
  'thank-you': {
    subject: 'Thank you for joining {{show}}',
    body: [
      'Hi {{name}},',
      '',
      'Thank you for a wonderful conversation for "{{subject}}". It was a pleasure to have you on {{show}}.',
      '',
      'The episode will be published on {{publish_date}} on {{platform}}. We will send you the link and a few clips to share.',
      '',
      'With thanks,',
      '{{host}}',
    ].join('\n'),
  },
};

export const defaultTemplateSettings: TemplateSettings = {
  host: 'Alex Morgan',
  show: 'The Studio Hour',
  audienceSize: '25,000 listeners a month',
  duration: '45 minutes',
  platform: 'all major podcast apps',
  publishLagDays: 7,
};

const VARIABLE = /\{\{\s*([^{}\s]+)\s*\}\}/g;

export function isTemplateVariable(name: string): name is TemplateVariable {
  return (templateVariables as readonly string[]).includes(name);
}

/** Every `{{x}}` in the text that is not one of the twelve variables, in order, once each. */
export function unknownVariables(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(VARIABLE)) {
    const name = match[1] as string;
    if (!isTemplateVariable(name)) unknown.add(name);
  }
  return [...unknown];
}

export interface Rendered {
  text: string;
  unknown: string[];
  missing: string[];
}

/**
 * Replaces `{{variable}}` with its value. A variable without a value renders empty and is
 * listed in `missing`; an unknown one is left as written and listed in `unknown`.
 */
export function renderText(text: string, values: Partial<Record<TemplateVariable, string | null>>): Rendered {
  const unknown = new Set<string>();
  const missing = new Set<string>();
  const rendered = text.replace(VARIABLE, (whole, name: string) => {
    if (!isTemplateVariable(name)) {
      unknown.add(name);
      return whole;
    }
    const value = values[name];
    if (value === null || value === undefined || value === '') {
      missing.add(name);
      return '';
    }
    return value;
  });
  return { text: rendered, unknown: [...unknown], missing: [...missing] };
}

export function renderTemplate(
  template: EmailTemplate,
  values: Partial<Record<TemplateVariable, string | null>>,
): { subject: string; body: string; unknown: string[]; missing: string[] } {
  const subject = renderText(template.subject, values);
  const body = renderText(template.body, values);
  return {
    subject: subject.text.replace(/\s+/g, ' ').trim(),
    body: body.text,
    unknown: [...new Set([...subject.unknown, ...body.unknown])],
    missing: [...new Set([...subject.missing, ...body.missing])],
  };
}
