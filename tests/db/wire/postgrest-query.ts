/**
 * PostgREST's URL grammar, the part the Supabase adapter uses, turned into SQL fragments: `select=` (columns
 * or `*`), column filters (`eq neq gt gte lt lte like ilike is in`, each optionally `not.`), logic trees
 * (`or=(…)`, `and=(…)`, nested, with double-quoted values), `order=`, `limit=` and `offset=`. Columns are
 * checked against the schema cache; values only ever travel as bind parameters.
 * https://docs.postgrest.org/en/v12/references/api/tables_views.html
 * https://docs.postgrest.org/en/v12/references/api/url_grammar.html
 */
import { ident, type Relation } from './postgrest-schema-cache';

export interface PgrstErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

/** A request PostgREST refuses before it reaches the database. */
export class PgrstRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: PgrstErrorBody,
  ) {
    super(body.message);
  }
}

/** A request form PostgREST accepts but this emulator does not serve (yet): never answered as if it were fine. */
export class EmulatorGap extends Error {}

/** Bind parameters, numbered in the order they are added. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function parseError(message: string, details: string): PgrstRefusal {
  return new PgrstRefusal(400, { code: 'PGRST100', message, details, hint: null });
}

function column(rel: Relation, name: string): string {
  if (!rel.columns.has(name)) {
    throw new PgrstRefusal(400, { code: '42703', message: `column ${rel.name}.${name} does not exist`, details: null, hint: null });
  }
  return ident(name);
}

/** Splits `a,b(c,d),"e,f"` at top-level commas, keeping quotes and escapes as written. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A value as written inside a logic tree or an `in` list: `"…"` with backslash escapes, else as is. */
function unquote(raw: string): string {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) return raw.slice(1, -1).replace(/\\(.)/g, '$1');
  return raw;
}

const COMPARISONS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'like', ilike: 'ilike' };
const UNSERVED_OPERATORS = new Set(['match', 'imatch', 'isdistinct', 'fts', 'plfts', 'phfts', 'wfts', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'like', 'ilike']);
const IS_VALUES: Record<string, string> = { null: 'null', not_null: 'not null', true: 'true', false: 'false', unknown: 'unknown' };

/** `[not.]op.value` on a column, as SQL. `quoted` says whether values may be double-quoted (logic trees). */
function condition(target: string, expr: string, quoted: boolean, params: Params): string {
  const negated = expr.startsWith('not.');
  const rest = negated ? expr.slice(4) : expr;
  const dot = rest.indexOf('.');
  const op = dot < 0 ? rest : rest.slice(0, dot);
  const raw = dot < 0 ? '' : rest.slice(dot + 1);
  let sql: string;
  if (op in COMPARISONS) {
    let value = quoted ? unquote(raw) : raw;
    if (op === 'like' || op === 'ilike') value = value.replaceAll('*', '%');
    sql = `${target} ${COMPARISONS[op]} ${params.add(value)}`;
  } else if (op === 'is') {
    const v = IS_VALUES[raw.toLowerCase()];
    if (!v) throw parseError(`failed to parse filter (${expr})`, `unexpected "${raw}" expecting null or trilean value (unknown, true, false)`);
    sql = `${target} is ${v}`;
  } else if (op === 'in') {
    if (!raw.startsWith('(') || !raw.endsWith(')')) throw parseError(`failed to parse filter (${expr})`, 'unexpected end of input expecting "("');
    const inner = raw.slice(1, -1);
    const values = inner === '' ? [] : splitTopLevel(inner).map(unquote);
    sql = values.length === 0 ? 'false' : `${target} in (${values.map((v) => params.add(v)).join(', ')})`;
  } else if (UNSERVED_OPERATORS.has(op.replace(/\(.*$/, ''))) {
    throw new EmulatorGap(`filter operator "${op}" is not served`);
  } else {
    throw parseError(`failed to parse filter (${expr})`, `unexpected "${op}" expecting an operator`);
  }
  return negated ? `not (${sql})` : sql;
}

/** `(a.eq.1,and(b.lt."x",c.is.null))` joined with `joiner`. */
function logicTree(rel: Relation, qualifier: string, joiner: 'and' | 'or', body: string, params: Params): string {
  if (!body.startsWith('(') || !body.endsWith(')')) throw parseError(`failed to parse logic tree (${body})`, 'unexpected end of input expecting "("');
  const items = splitTopLevel(body.slice(1, -1)).map((item) => {
    const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(item);
    if (nested) {
      const sql = logicTree(rel, qualifier, nested[2] as 'and' | 'or', nested[3]!, params);
      return nested[1] ? `not ${sql}` : sql;
    }
    const dot = item.indexOf('.');
    if (dot < 0) throw parseError(`failed to parse logic tree (${body})`, `unexpected "${item}"`);
    return condition(`${qualifier}.${column(rel, item.slice(0, dot))}`, item.slice(dot + 1), true, params);
  });
  return `(${items.join(` ${joiner} `)})`;
}

export interface QueryShape {
  /** The select list, qualified by the caller's alias. */
  select: (alias: string) => string;
  /** `true` when there is no filter. */
  where: string;
  orderBy: string;
  limit: number | null;
  offset: number;
}

const RESERVED = new Set(['select', 'order', 'limit', 'offset', 'or', 'and', 'not.or', 'not.and', 'columns', 'on_conflict']);

function nonNegativeInt(name: string, value: string | null): number | null {
  if (value === null) return null;
  if (!/^\d+$/.test(value)) throw parseError(`failed to parse ${name} parameter (${value})`, 'unexpected input expecting a non-negative integer');
  return Number(value);
}

/** The rows, order and page a request's query string asks of `rel`, whose columns are named `qualifier.col`. */
export function parseQuery(search: URLSearchParams, rel: Relation, qualifier: string, params: Params): QueryShape {
  const conditions: string[] = [];
  for (const [key, value] of search) {
    if (key === 'or' || key === 'and' || key === 'not.or' || key === 'not.and') {
      const negated = key.startsWith('not.');
      const sql = logicTree(rel, qualifier, negated ? (key.slice(4) as 'and' | 'or') : (key as 'and' | 'or'), value, params);
      conditions.push(negated ? `not ${sql}` : sql);
    } else if (!RESERVED.has(key)) {
      if (key.includes('.') || key.includes('->')) throw new EmulatorGap(`filter on "${key}" is not served`);
      conditions.push(condition(`${qualifier}.${column(rel, key)}`, value, false, params));
    }
  }
  if (search.has('columns') || search.has('on_conflict')) throw new EmulatorGap('columns= and on_conflict= are not served');

  const selectParam = search.get('select') ?? '*';
  const selected = selectParam === '*' ? null : selectParam.split(',');
  if (selected?.some((c) => !/^[a-z_][a-z0-9_]*$/.test(c))) throw new EmulatorGap(`select=${selectParam} (aliases, casts, embedding) is not served`);
  const selectColumns = selected?.map((c) => column(rel, c));

  const order = search.get('order');
  const orderBy = order
    ? order
        .split(',')
        .map((term) => {
          const [name = '', ...mods] = term.split('.');
          let sql = `${qualifier}.${column(rel, name)}`;
          for (const mod of mods) {
            if (mod === 'asc' || mod === 'desc') sql += ` ${mod}`;
            else if (mod === 'nullsfirst' || mod === 'nullslast') sql += ` nulls ${mod.slice(5)}`;
            else throw parseError(`failed to parse order (${order})`, `unexpected "${mod}" expecting "asc", "desc", "nullsfirst" or "nullslast"`);
          }
          return sql;
        })
        .join(', ')
    : '';

  return {
    select: (alias) => (selectColumns ? selectColumns.map((c) => `${alias}.${c}`).join(', ') : `${alias}.*`),
    where: conditions.length > 0 ? conditions.join(' and ') : 'true',
    orderBy,
    limit: nonNegativeInt('limit', search.get('limit')),
    offset: nonNegativeInt('offset', search.get('offset')) ?? 0,
  };
}
