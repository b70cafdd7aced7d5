import type { CrmRecord } from '../../peers/crm.js';

/** A CRM field as text: empty and non-text values are null. */
export const textOf = (record: CrmRecord, key: string): string | null => {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** A CRM number field; null when absent or not a number. */
export const numberOf = (record: CrmRecord, key: string): number | null => {
  const value = Number(record[key]);
  return record[key] === null || record[key] === undefined || !Number.isFinite(value) ? null : value;
};

/** A CRM multiEnum field (a list of labels); anything else is empty. */
export const labelsOf = (record: CrmRecord, key: string): string[] => {
  const value = record[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};
