declare const laneBrand: unique symbol;

/**
 * A job-queue lane: jobs of one lane run one at a time, in order, and `JobQueue.withLane`
 * holders take their turn with them. Branded so that only the functions below make one: two
 * places that spelt one record's lane differently would stop queueing behind each other
 * without a word (a dashboard cancel racing the record's webhook jobs).
 */
export type Lane = string & { readonly [laneBrand]: true };

/**
 * The lane of a CRM record (`SocialPost`, `PlatformPublish`, `GuestBooking`, ...): its webhook
 * items, the jobs the bridge runs for it and API actions on it take turns here.
 */
export function crmRecordLane(entity: string, id: string): Lane {
  return `${entity}:${id}` as Lane;
}

/**
 * A lane for the bridge's own follow-up work on a record that must not hold the record's CRM
 * events: a guest's n8n workflow is retried with backoff for as long as n8n is down, and a
 * waiting job blocks everything behind it in its lane, so in the guest's record lane it would
 * hold back the guest's next stage changes (and their holds) for hours.
 */
export function followUpLane(purpose: string, id: string): Lane {
  return `${purpose}:${id}` as Lane;
}
