/**
 * What PostgREST's schema cache knows of the exposed schema (`public`): its tables and views with their
 * columns, and its functions with their parameters and return kinds. Every identifier a request names is
 * looked up here before it reaches SQL, so request text never becomes SQL text.
 * https://docs.postgrest.org/en/v12/references/schema_cache.html
 */
import type { Queryable } from '../db-harness';

export const EXPOSED_SCHEMA = 'public';

export interface Relation {
  name: string;
  columns: ReadonlySet<string>;
}

export interface FunctionParam {
  name: string;
  /** `format_type` of the parameter: a type name as Postgres prints it, safe to put in SQL. */
  type: string;
  hasDefault: boolean;
}

export interface RoutineInfo {
  name: string;
  params: FunctionParam[];
  /** Returns a set (SETOF, TABLE): answered as a JSON array. */
  returnsSet: boolean;
  /** Returns a row type (not a set): answered as a JSON object. */
  returnsComposite: boolean;
  returnsVoid: boolean;
}

export interface SchemaCache {
  relation(name: string): Relation | undefined;
  /** The function named `name` whose parameters take exactly the given keys (the required ones at least). */
  routine(name: string, keys: readonly string[]): RoutineInfo | undefined;
}

/** Double-quotes a catalogue name for SQL. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function loadSchemaCache(db: Queryable): Promise<SchemaCache> {
  const relations = await db.query<{ name: string; columns: string }>(
    `select c.relname as name, json_agg(a.attname order by a.attnum)::text as columns
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')
     group by c.relname`,
    [EXPOSED_SCHEMA],
  );
  const routines = await db.query<{ name: string; params: string; returns_set: boolean; returns_composite: boolean; returns_void: boolean; defaults: number }>(
    `select p.proname as name, p.proretset as returns_set, rt.typtype = 'c' as returns_composite,
            p.prorettype = 'void'::regtype as returns_void, p.pronargdefaults::int as defaults,
            coalesce((
              select json_agg(json_build_object('name', a.name, 'type', format_type(a.type, null)) order by a.ord)
              from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargnames,
                          coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs::int])))
                   with ordinality as a(type, name, mode, ord)
              where a.mode in ('i', 'b', 'v')
            ), '[]')::text as params
     from pg_proc p
     join pg_namespace n on n.oid = p.pronamespace
     join pg_type rt on rt.oid = p.prorettype
     where n.nspname = $1 and p.prokind = 'f'`,
    [EXPOSED_SCHEMA],
  );

  const byName = new Map<string, Relation>(relations.map((r) => [r.name, { name: r.name, columns: new Set(JSON.parse(r.columns) as string[]) }]));
  const functions = routines.map((r): RoutineInfo => {
    const raw = JSON.parse(r.params) as { name: string | null; type: string }[];
    const firstDefault = raw.length - r.defaults;
    return {
      name: r.name,
      params: raw.map((p, i) => ({ name: p.name ?? '', type: p.type, hasDefault: i >= firstDefault })),
      returnsSet: r.returns_set,
      returnsComposite: r.returns_composite,
      returnsVoid: r.returns_void,
    };
  });

  return {
    relation: (name) => byName.get(name),
    routine: (name, keys) =>
      functions.find((f) => {
        if (f.name !== name) return false;
        const names = new Set(f.params.map((p) => p.name));
        return keys.every((k) => names.has(k)) && f.params.every((p) => p.hasDefault || keys.includes(p.name));
      }),
  };
}
