import type { ReactNode } from 'react';
import { notesAt, type FieldNote } from './post-form-notes.js';
import type { PostField } from './post-words.js';

/** The id a field's input names in aria-describedby, when it has notes to show. */
export const notesId = (form: string, field: PostField) => `${form}-${field}-notes`;

/**
 * What is wrong with a field, or advised, right under it (issue #30.4). A note about one media
 * link says which line it is. The field's input points here with aria-describedby.
 */
export function FieldNotes({ id, notes }: { id: string; notes: readonly FieldNote[] }) {
  if (notes.length === 0) return null;
  return (
    <ul id={id} className="posts-checks posts-field-notes" aria-live="polite">
      {notes.map((note) => (
        <li
          key={`${note.tone}:${note.index ?? ''}:${note.text}`}
          className={`posts-check posts-check-${note.tone}`}
          data-testid={note.index !== null ? `media-link-${note.index + 1}` : undefined}
        >
          {note.index !== null ? <strong>Line {note.index + 1}: </strong> : null}
          {note.text}
        </li>
      ))}
    </ul>
  );
}

/**
 * A form's notes for one field, ready to place: the list to put under the field and the id its
 * input names in aria-describedby (undefined when there is nothing to say). One helper for the
 * composer and the Edit dialog, so both point their inputs at their notes the same way.
 */
export function notesForField(
  form: string,
  notes: readonly FieldNote[],
  field: PostField,
): { notes: ReactNode; describedBy: string | undefined } {
  const here = notesAt(notes, field);
  return {
    notes: <FieldNotes id={notesId(form, field)} notes={here} />,
    describedBy: here.length > 0 ? notesId(form, field) : undefined,
  };
}
