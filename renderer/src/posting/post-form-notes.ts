import { issueWords, warningWords, type FieldWords, type PostField } from './post-words.js';

/** The rules' own media messages are shown by MediaChecks in words: not repeated in the list of checks. */
export const isMediaIssue = (message: string) => message.startsWith('mediaUrls:');

/** A message for one field of a post form: a rule broken (error) or advice (warning). */
export interface FieldNote extends FieldWords {
  tone: 'error' | 'warn';
}

/** The notes at one field, each said once (the bridge's preview and its refusal may say the same). */
export function notesAt(notes: readonly FieldNote[], field: PostField | null): FieldNote[] {
  const seen = new Set<string>();
  return notes.filter((note) => {
    if (note.field !== field || seen.has(note.text)) return false;
    seen.add(note.text);
    return true;
  });
}

/**
 * A post form's notes, in words: the bridge's refusal and the rules' errors, then their warnings
 * (`at`, the draft's time, said beside a warning about the time). A platform's media rule is left
 * out: MediaChecks says it, in words, beside the media field.
 */
export function postFormNotes({
  refusal,
  errors,
  warnings,
  at,
}: {
  refusal: readonly FieldWords[];
  errors: readonly { field: string; message: string; code: string }[];
  warnings: readonly string[];
  at: string | null | undefined;
}): FieldNote[] {
  return [
    ...refusal.map((words) => ({ ...words, tone: 'error' as const })),
    ...errors
      .filter((issue) => issue.code !== 'INVALID_MEDIA')
      .map((issue) => ({ ...issueWords(issue), tone: 'error' as const })),
    ...warnings
      .filter((warning) => !isMediaIssue(warning))
      .map((warning) => ({ ...warningWords(warning, at), tone: 'warn' as const })),
  ];
}
