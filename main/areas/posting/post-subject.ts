import { capitalize, named, postSubject, type ActivitySubject } from '../../kernel/activity/subjects.js';
import type { LedgerRow } from './repo.js';

/**
 * A post as its activity events name it (issue #30.4), from what the call site holds: the CRM
 * record (its name, else its content) or the ledger row (the text it was sent with). No read.
 */
export function ledgerPostSubject(row: LedgerRow): ActivitySubject {
  return postSubject(
    { socialPostId: row.social_post_id, postsvcId: row.postsvc_id, ledgerId: row.id },
    { text: row.post },
  );
}

/** A CRM post as read (SocialPostRecord) or as an item names it. */
export function crmPostSubject(
  record: { id: string; name?: unknown; content?: unknown },
  row?: LedgerRow,
): ActivitySubject {
  return postSubject(
    { socialPostId: record.id, postsvcId: row?.postsvc_id, ledgerId: row?.id },
    { name: record.name, text: typeof record.content === 'string' ? record.content : row?.post },
  );
}

/** A post known by its ids only, and its ledger row when the bridge has one. */
export function postSubjectOf(
  ids: { socialPostId: string } | { postsvcId: string },
  row: LedgerRow | undefined,
): ActivitySubject {
  return row
    ? postSubject(
        {
          socialPostId: 'socialPostId' in ids ? ids.socialPostId : row.social_post_id,
          postsvcId: 'postsvcId' in ids ? ids.postsvcId : row.postsvc_id,
          ledgerId: row.id,
        },
        { text: row.post },
      )
    : postSubject(ids, {});
}

/** The ledger row's post as a message starts with it: `CRM post “…”` or `Post “…”`. */
export function ledgerPostWords(row: LedgerRow): string {
  return capitalize(named(ledgerPostSubject(row), row.social_post_id ? 'CRM post' : undefined));
}

/** A CRM post as a message starts with it: `CRM post “Launch teaser”`, else `A CRM post`. */
export function crmPostWords(subject: ActivitySubject): string {
  return capitalize(named(subject, 'CRM post'));
}
