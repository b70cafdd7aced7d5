import type { SandboxCrm, SandboxPostsvc } from '../../main/sandbox/index.js';

/**
 * A bridge's environment pointing at a sandbox CRM (its webhooks signed with `secret`) and a
 * sandbox posting provider on `plan` (business unless said), with the provider's own key unless
 * `postsvcKey` says otherwise.
 */
export function crmAndPostsvcEnv(
  crm: SandboxCrm,
  postsvc: SandboxPostsvc,
  options: { secret: string; plan?: 'free' | 'premium' | 'business'; postsvcKey?: string | undefined },
): Record<string, string> {
  return {
    CRM_URL: crm.url,
    CRM_API_KEY: crm.apiKey,
    CRM_WEBHOOK_SECRETS: options.secret,
    POSTSVC_URL: postsvc.url,
    POSTSVC_API_KEY: options.postsvcKey ?? postsvc.apiKey,
    POSTSVC_PLAN: options.plan ?? 'business',
  };
}
