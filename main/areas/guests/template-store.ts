import {
  emailMoments,
  templateVariables,
  type EmailTemplate,
  type TemplateSet,
  type TemplateSettings,
} from '../../../shared/api/guests.js';
import { AppError } from '../../kernel/app-error.js';
import type { KeyValueRepo } from '../../kernel/key-value-repo.js';
import { defaultTemplates, defaultTemplateSettings, unknownVariables } from './templates.js';

const SETTINGS_KEY = 'guests.emailTemplates';

interface Stored {
  templates?: Partial<TemplateSet>;
  settings?: Partial<TemplateSettings>;
  updatedAt?: string;
}

export interface TemplatesState {
  templates: TemplateSet;
  settings: TemplateSettings;
  updatedAt: string | null;
}

/** The email templates and the studio values they use, in the settings table (defaults until edited). */
export class TemplateStore {
  constructor(
    private readonly settingsRepo: KeyValueRepo,
    private readonly now: () => Date,
  ) {}

  get(): TemplatesState {
    const stored = this.settingsRepo.get<Stored>(SETTINGS_KEY) ?? {};
    return {
      templates: { ...defaultTemplates, ...stored.templates },
      settings: { ...defaultTemplateSettings, ...stored.settings },
      updatedAt: stored.updatedAt ?? null,
    };
  }

  /** Each given template or setting replaces the stored one; unknown `{{variables}}` are refused. */
  put(change: { templates?: Partial<TemplateSet>; settings?: Partial<TemplateSettings> }): TemplatesState {
    const problems: string[] = [];
    for (const moment of emailMoments) {
      const template: EmailTemplate | undefined = change.templates?.[moment];
      if (!template) continue;
      for (const part of ['subject', 'body'] as const) {
        const unknown = unknownVariables(template[part]);
        if (unknown.length > 0) {
          problems.push(
            `templates.${moment}.${part}: unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.map((v) => `{{${v}}}`).join(', ')} (known: ${templateVariables.join(', ')})`,
          );
        }
      }
    }
    if (problems.length > 0) throw AppError.validation(problems.join('; '));
    const current = this.get();
    const next: Stored = {
      templates: { ...current.templates, ...change.templates },
      settings: { ...current.settings, ...change.settings },
      updatedAt: this.now().toISOString(),
    };
    this.settingsRepo.put(SETTINGS_KEY, next, next.updatedAt as string);
    return this.get();
  }
}
