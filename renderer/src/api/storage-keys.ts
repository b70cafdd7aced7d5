/** localStorage name of the bridge key a browser on the LAN pasted (the e2e tests preset it too). */
export const API_KEY_STORAGE_KEY = 'studioBridge.apiKey';
/** localStorage name of the operator's "Notify me" choice (`on`/`off`) for failure notifications. */
export const NOTIFY_STORAGE_KEY = 'studioBridge.notifyFailures';
