/** One bad key: the field, the rule it breaks (zod's issue code, or `required`/`unreadable`), in words. */
export interface ConfigIssue {
  field: string;
  rule: string;
  message: string;
}

/** Where a value in force comes from: env wins over the config file. */
export type ConfigSource = 'env' | 'file' | 'default' | 'generated';
