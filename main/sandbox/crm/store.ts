import { notFound } from './errors.js';
import { entityFields, linkNameAttribute, type CrmEntityName } from './entities.js';
import { writableAttributes } from './validate.js';
import { crmId, toCrmDatetime } from './wire-format.js';

export type CrmRecord = Record<string, unknown> & { id: string };
export type WriteAction = 'create' | 'update' | 'delete';

/** Who made a write: the REST API user, or a person in the CRM's UI (direct calls, demo data). */
export interface Actor {
  id: string;
  name: string;
}

/** One write, as the webhook sender and the server-side hooks see it. */
export interface WriteEvent {
  entity: CrmEntityName;
  action: WriteAction;
  id: string;
  /** The webhook item: all attributes (create), changed ones + id (update), only id (delete). */
  item: Record<string, unknown>;
  before: CrmRecord | null;
  after: CrmRecord | null;
  changed: string[];
  actor: Actor;
}

interface Row {
  seq: number;
  attrs: Record<string, unknown>;
}

export interface CrmStoreOptions {
  now: () => Date;
  randomChars: (length: number) => string;
  onWrite: (event: WriteEvent) => void;
}

/** The CRM's records in memory. Every write, from REST or direct calls, goes through here. */
export class CrmStore {
  /** Every record, and the insertion counter: the CRM's persistent world (common/world.ts). */
  readonly world = { tables: new Map<CrmEntityName, Map<string, Row>>(), seq: 0 };

  constructor(private readonly options: CrmStoreOptions) {}

  exists(entity: CrmEntityName, id: string): boolean {
    return this.#table(entity).has(id);
  }

  get(entity: CrmEntityName, id: string): CrmRecord | undefined {
    const row = this.#table(entity).get(id);
    return row ? this.#view(entity, row) : undefined;
  }

  /** Every record in creation order, with its insertion sequence (the sort tie-breaker). */
  rows(entity: CrmEntityName): Array<{ seq: number; record: CrmRecord }> {
    return [...this.#table(entity).values()].map((row) => ({
      seq: row.seq,
      record: this.#view(entity, row),
    }));
  }

  all(entity: CrmEntityName): CrmRecord[] {
    return this.rows(entity).map((row) => row.record);
  }

  create(entity: CrmEntityName, input: unknown, actor: Actor): CrmRecord {
    const attrs = writableAttributes(entity, input, 'create', (e, id) => this.exists(e, id));
    const now = toCrmDatetime(this.options.now());
    const id = this.#newId();
    const stored: Record<string, unknown> = { id };
    for (const [attribute, def] of Object.entries(entityFields[entity])) {
      stored[attribute] =
        attribute in attrs
          ? attrs[attribute]
          : def.default !== undefined
            ? structuredClone(def.default)
            : null;
    }
    Object.assign(stored, {
      deleted: false,
      createdAt: now,
      modifiedAt: now,
      createdById: actor.id,
      createdByName: actor.name,
      modifiedById: actor.id,
      modifiedByName: actor.name,
    });
    const row: Row = { seq: ++this.world.seq, attrs: stored };
    this.#table(entity).set(id, row);
    const after = this.#view(entity, row);
    this.options.onWrite({
      entity,
      action: 'create',
      id,
      item: structuredClone(after),
      before: null,
      after,
      changed: Object.keys(attrs),
      actor,
    });
    return structuredClone(after);
  }

  /** PUT/PATCH semantics: only the given attributes change. No change: no event, modifiedAt kept. */
  update(entity: CrmEntityName, id: string, input: unknown, actor: Actor): CrmRecord {
    const row = this.#table(entity).get(id);
    if (!row) throw notFound(`${entity} ${id} not found`);
    const attrs = writableAttributes(entity, input, 'update', (e, linkId) => this.exists(e, linkId));
    const before = this.#view(entity, row);
    const changed = Object.keys(attrs).filter(
      (a) => JSON.stringify(row.attrs[a]) !== JSON.stringify(attrs[a]),
    );
    if (changed.length === 0) return before;

    for (const attribute of changed) row.attrs[attribute] = attrs[attribute];
    row.attrs.modifiedAt = toCrmDatetime(this.options.now());
    row.attrs.modifiedById = actor.id;
    row.attrs.modifiedByName = actor.name;
    const after = this.#view(entity, row);

    // EspoCRM's update webhook item: id + the attributes that changed (and their link names).
    const item: Record<string, unknown> = { id };
    for (const attribute of changed) {
      item[attribute] = structuredClone(after[attribute]);
      if (entityFields[entity][attribute]?.type === 'link') {
        const nameAttribute = linkNameAttribute(attribute);
        item[nameAttribute] = after[nameAttribute];
      }
    }
    // No modifiedAt/modifiedBy: EspoCRM leaves them out of update items (DESIGN §5.1), so two
    // real changes to the same values are byte-identical items.

    this.options.onWrite({ entity, action: 'update', id, item, before, after, changed, actor });
    return structuredClone(after);
  }

  remove(entity: CrmEntityName, id: string, actor: Actor): void {
    const row = this.#table(entity).get(id);
    if (!row) throw notFound(`${entity} ${id} not found`);
    const before = this.#view(entity, row);
    this.#table(entity).delete(id);
    this.options.onWrite({
      entity,
      action: 'delete',
      id,
      item: { id },
      before,
      after: null,
      changed: [],
      actor,
    });
  }

  #table(entity: CrmEntityName): Map<string, Row> {
    let table = this.world.tables.get(entity);
    if (!table) {
      table = new Map();
      this.world.tables.set(entity, table);
    }
    return table;
  }

  /** A copy of the stored attributes plus the derived `xxxName` of every link. */
  #view(entity: CrmEntityName, row: Row): CrmRecord {
    const out: Record<string, unknown> = {};
    for (const [attribute, value] of Object.entries(row.attrs)) {
      out[attribute] = structuredClone(value);
      const def = entityFields[entity][attribute];
      if (def?.type === 'link' && def.entity) {
        const target = typeof value === 'string' ? this.#table(def.entity).get(value) : undefined;
        out[linkNameAttribute(attribute)] = (target?.attrs.name as string | null | undefined) ?? null;
      }
    }
    return out as CrmRecord;
  }

  #newId(): string {
    for (;;) {
      const id = crmId(this.options.now(), this.options.randomChars);
      if (![...this.world.tables.values()].some((table) => table.has(id))) return id;
    }
  }
}
