/**
 * The delivery log and the queued items are stored without secrets (DESIGN §7). The rules (by
 * name and by value) are the kernel's, shared with activity and the log.
 */
export { mayHoldSecret, redactPayload, redactSecrets } from '../../kernel/secret-redaction.js';
