/**
 * The bridge's words about settings name them by config key ("GATEWAY_URL"); the Settings page
 * names them by label, the key being its small print. Each whole key in `text` that has a label
 * becomes that label: "COLLECT_INTERVAL_HOURS must be at least 1 hour." → "Collect analytics every
 * (hours) must be at least 1 hour."
 */
export function withSettingLabels(text: string, labels: ReadonlyMap<string, string>): string {
  return text.replace(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, (key) => labels.get(key) ?? key);
}
