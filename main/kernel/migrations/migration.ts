/** One numbered schema change; the runner in kernel/db.ts applies each version once, in order. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
