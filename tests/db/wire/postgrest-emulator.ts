/**
 * The PostgREST endpoints the Supabase adapter calls, run on the test database as the caller: the bearer
 * token is verified (HS256) and its claims decide the role (`authenticated`, or `anon` for the anon key),
 * so grants and Row Level Security answer every request exactly as they would behind a real project.
 * Each request is one transaction, rolled back when it fails. Shapes and statuses follow
 *   https://docs.postgrest.org/en/v12/references/api/tables_views.html (reads, inserts, updates, deletes)
 *   https://docs.postgrest.org/en/v12/references/api/functions.html (RPC: named arguments, set/scalar/void results)
 *   https://docs.postgrest.org/en/v12/references/api/resource_representation.html (singular objects, PGRST116)
 *   https://docs.postgrest.org/en/v12/references/api/pagination_count.html (Content-Range, Prefer: count=exact)
 *   https://docs.postgrest.org/en/v12/references/api/preferences.html (Prefer: return=…)
 *   https://docs.postgrest.org/en/v12/references/errors.html (error body and SQLSTATE → HTTP status)
 *   https://docs.postgrest.org/en/v12/references/auth.html (JWT role switching, request.jwt.claims)
 */
import type { Harness, Queryable } from '../db-harness';
import { verifyJwt, type Claims } from './jwt-hs256';
import { EmulatorGap, Params, parseQuery, PgrstRefusal, type PgrstErrorBody } from './postgrest-query';
import { EXPOSED_SCHEMA, ident, type Relation, type RoutineInfo, type SchemaCache } from './postgrest-schema-cache';
import { bearerToken, emptyResponse, type WireRequest } from './wire-http';

const OBJECT_MEDIA = 'application/vnd.pgrst.object+json';
const JSON_CONTENT = 'application/json; charset=utf-8';
const ROLES = new Set(['anon', 'authenticated']);

/** SQLSTATE → HTTP status, as PostgREST's error table has it. */
export function statusOfSqlState(code: string, authenticated: boolean): number {
  const exact: Record<string, number> = { '23503': 409, '23505': 409, '25006': 405, '53400': 500, P0001: 400, '42883': 404, '42P01': 404, '42P17': 500 };
  if (code === '42501') return authenticated ? 403 : 401;
  if (exact[code]) return exact[code]!;
  const byClass: Record<string, number> = {
    '08': 503, '09': 500, '0L': 403, '0P': 403, '25': 500, '28': 403, '2D': 500, '38': 500, '39': 500, '3B': 500,
    '40': 500, '53': 503, '54': 500, '55': 500, '57': 500, '58': 500, F0: 500, HV: 500, P0: 500, XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

function refusal(status: number, code: string, message: string, details: string | null = null, hint: string | null = null): PgrstRefusal {
  return new PgrstRefusal(status, { code, message, details, hint });
}

/** A response decided inside the transaction that must still roll it back (a singular request that did not get one row). */
class RollbackWith extends Error {
  constructor(readonly response: PgrstRefusal) {
    super(response.message);
  }
}

function errorResponse(e: PgrstRefusal): Response {
  const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT };
  if (e.status === 401) headers['WWW-Authenticate'] = 'Bearer';
  return new Response(JSON.stringify(e.body), { status: e.status, headers });
}

interface DbFailure {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isDbFailure(e: unknown): e is DbFailure {
  return typeof e === 'object' && e !== null && typeof (e as DbFailure).code === 'string' && /^[0-9A-Z]{5}$/.test((e as DbFailure).code);
}

/** The Prefer header's settings (several headers, or comma-separated, as RFC 7240 allows). */
function preferences(headers: Headers): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (headers.get('Prefer') ?? '').split(',')) {
    const [k, v = ''] = part.trim().split('=');
    if (k) out.set(k, v);
  }
  return out;
}

function wantsObject(headers: Headers): boolean {
  const accept = headers.get('Accept') ?? '';
  if (accept.includes('nulls=stripped')) throw new EmulatorGap('Accept: …;nulls=stripped is not served');
  if (accept.startsWith(OBJECT_MEDIA)) return true;
  if (accept === '' || /application\/json|\*\/\*|application\/vnd\.pgrst\.array\+json/.test(accept)) return false;
  throw new EmulatorGap(`Accept: ${accept} is not served`);
}

interface Outcome {
  status: number;
  body: string | null;
  rows: number;
  total: number | null;
}

export interface PostgrestOptions {
  db: Harness;
  jwtSecret: string;
  schema: SchemaCache;
  /** db-max-rows: the most rows one read returns (a hosted project's "Max rows" setting). */
  maxRows: number;
}

export class PostgrestEmulator {
  constructor(private readonly opts: PostgrestOptions) {}

  /** Answers a request to `/rest/v1/<path>`. */
  async handle(req: WireRequest, path: string): Promise<Response> {
    try {
      const claims = this.claims(req);
      for (const header of ['Accept-Profile', 'Content-Profile']) {
        const profile = req.headers.get(header);
        if (profile && profile !== EXPOSED_SCHEMA) throw refusal(406, 'PGRST106', `The schema must be one of the following: ${EXPOSED_SCHEMA}`);
      }
      const singular = wantsObject(req.headers);
      const rpc = /^\/rpc\/([^/]+)$/.exec(path);
      const table = /^\/([^/]+)$/.exec(path);
      let run: (q: Queryable) => Promise<Outcome>;
      if (rpc) {
        if (req.method !== 'POST') {
          if (req.method === 'GET' || req.method === 'HEAD') throw new EmulatorGap(`${req.method} /rpc is not served`);
          throw refusal(405, 'PGRST101', `Cannot use the ${req.method} method on RPC`);
        }
        run = this.rpc(req, decodeURIComponent(rpc[1]!));
      } else if (table) {
        const name = decodeURIComponent(table[1]!);
        const rel = this.opts.schema.relation(name);
        if (!rel) throw refusal(404, 'PGRST205', `Could not find the table '${EXPOSED_SCHEMA}.${name}' in the schema cache`);
        run = this.resource(req, rel);
      } else {
        throw refusal(404, 'PGRST125', `Invalid path specified in request URL`);
      }
      const outcome = await this.asCaller(req, claims, path, async (q) => {
        const result = await run(q);
        if (singular && result.body !== null && result.rows !== 1) {
          throw new RollbackWith(refusal(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${result.rows} rows`));
        }
        return result;
      });
      return this.respond(req, outcome, singular);
    } catch (e) {
      if (e instanceof RollbackWith) return errorResponse(e.response);
      if (e instanceof PgrstRefusal) return errorResponse(e);
      throw e;
    }
  }

  /** The verified claims of the bearer token; no token is the anonymous role. */
  private claims(req: WireRequest): Claims {
    const token = bearerToken(req.headers);
    if (!token) return { role: 'anon' };
    // PostgREST takes a token up to 30 seconds past its `exp`, for clock skew (allowedSkewSeconds in its Auth module).
    const verified = verifyJwt(token, this.opts.jwtSecret, 30);
    if (!verified.ok) {
      if (verified.reason === 'expired') throw refusal(401, 'PGRST303', 'JWT expired');
      throw refusal(401, 'PGRST301', verified.reason === 'signature' ? 'JWSError JWSInvalidSignature' : 'Expected 3 parts in JWT; got fewer');
    }
    const role = verified.claims.role ?? 'anon';
    if (!ROLES.has(role)) throw new EmulatorGap(`requests as role "${role}" are not served`);
    return verified.claims;
  }

  /** Runs `fn` in one transaction as the token's role with its claims set, as PostgREST does per request. */
  private async asCaller<T>(req: WireRequest, claims: Claims, path: string, fn: (q: Queryable) => Promise<T>): Promise<T> {
    const authenticated = claims.role === 'authenticated';
    const actor = authenticated ? { id: String(claims.sub), email: typeof claims.email === 'string' ? claims.email : null } : { id: null };
    const headers = Object.fromEntries([...req.headers].map(([k, v]) => [k.toLowerCase(), v]));
    try {
      return await this.opts.db.as(
        actor,
        async (q) => {
          await q.query(
            `select set_config('request.jwt.claims', $1, true), set_config('request.method', $2, true),
                    set_config('request.path', $3, true), set_config('request.headers', $4, true), set_config('TimeZone', 'UTC', true)`,
            [JSON.stringify(claims), req.method, path, JSON.stringify(headers)],
          );
          return fn(q);
        },
        { commit: true },
      );
    } catch (e) {
      if (isDbFailure(e)) {
        const body: PgrstErrorBody = { code: e.code, message: e.message, details: e.detail ?? null, hint: e.hint ?? null };
        throw new PgrstRefusal(statusOfSqlState(e.code, authenticated), body);
      }
      throw e;
    }
  }

  private respond(req: WireRequest, outcome: Outcome, singular: boolean): Response {
    const headers: Record<string, string> = {};
    if (req.method === 'GET' || req.method === 'PATCH' || req.method === 'DELETE') {
      const total = outcome.total === null ? '*' : String(outcome.total);
      const offset = Number(req.url.searchParams.get('offset') ?? 0);
      headers['Content-Range'] = outcome.rows > 0 ? `${offset}-${offset + outcome.rows - 1}/${total}` : `*/${total}`;
    } else if (req.method === 'POST' && !req.url.pathname.includes('/rpc/')) {
      headers['Content-Range'] = '*/*';
    }
    const prefer = preferences(req.headers);
    if (prefer.has('return') && !req.url.pathname.includes('/rpc/')) headers['Preference-Applied'] = `return=${prefer.get('return')}`;
    if (outcome.body === null) return emptyResponse(outcome.status, headers);
    let body = outcome.body;
    if (singular) {
      // The one row, as an object (a function returning one row type already answers with an object).
      const parsed: unknown = JSON.parse(body);
      body = Array.isArray(parsed) ? JSON.stringify(parsed[0]) : body;
      headers['Content-Type'] = `${OBJECT_MEDIA}; charset=utf-8`;
    } else {
      headers['Content-Type'] = JSON_CONTENT;
    }
    return new Response(body, { status: outcome.status, headers });
  }

  private resource(req: WireRequest, rel: Relation): (q: Queryable) => Promise<Outcome> {
    const target = `${ident(EXPOSED_SCHEMA)}.${ident(rel.name)}`;
    const prefer = preferences(req.headers);
    const representation = prefer.get('return') === 'representation';
    for (const key of prefer.keys()) {
      if (!['return', 'count', 'missing'].includes(key)) throw new EmulatorGap(`Prefer: ${key} is not served`);
    }
    const params = new Params();
    const aggregate = (source: string) =>
      `select coalesce(json_agg(pgrst_t), '[]')::text as body, count(*)::int as n from (${source}) pgrst_t`;

    if (req.method === 'GET') {
      const shape = parseQuery(req.url.searchParams, rel, target, params);
      const limit = Math.min(shape.limit ?? this.opts.maxRows, this.opts.maxRows);
      const source = `select ${shape.select(target)} from ${target} where ${shape.where}${shape.orderBy ? ` order by ${shape.orderBy}` : ''} limit ${limit} offset ${shape.offset}`;
      return async (q) => {
        const [row] = await q.query<{ body: string; n: number }>(aggregate(source), params.values);
        let total: number | null = null;
        if (prefer.get('count') === 'exact') {
          const [counted] = await q.query<{ total: number }>(`select count(*)::int as total from ${target} where ${shape.where}`, params.values);
          total = counted!.total;
        } else if (prefer.has('count')) {
          throw new EmulatorGap(`Prefer: count=${prefer.get('count')} is not served`);
        }
        const status = total !== null && row!.n < total ? 206 : 200;
        return { status, body: row!.body, rows: row!.n, total };
      };
    }

    const mutation = (sql: string, status: { representation: number; minimal: number }) => async (q: Queryable): Promise<Outcome> => {
      if (!representation) {
        await q.query(sql, params.values);
        return { status: status.minimal, body: null, rows: 0, total: null };
      }
      const shape = parseQuery(new URLSearchParams({ select: req.url.searchParams.get('select') ?? '*' }), rel, 'pgrst_source', new Params());
      const [row] = await q.query<{ body: string; n: number }>(
        `with pgrst_source as (${sql} returning ${target}.*) ${aggregate(`select ${shape.select('pgrst_source')} from pgrst_source`)}`,
        params.values,
      );
      return { status: status.representation, body: row!.body, rows: row!.n, total: null };
    };

    if (req.method === 'POST') {
      if ([...req.url.searchParams.keys()].some((k) => k !== 'select')) throw new EmulatorGap('POST with filters, columns= or on_conflict= is not served');
      const rows = Array.isArray(req.body) ? req.body : [req.body];
      if (rows.length === 0 || rows.some((r) => !r || typeof r !== 'object' || Array.isArray(r))) {
        throw refusal(400, 'PGRST102', 'Empty or invalid json');
      }
      const keys = Object.keys(rows[0] as object).sort();
      if (rows.some((r) => Object.keys(r as object).sort().join(',') !== keys.join(','))) throw refusal(400, 'PGRST102', 'All object keys must match');
      const missing = keys.find((k) => !rel.columns.has(k));
      if (missing) throw refusal(400, 'PGRST204', `Could not find the '${missing}' column of '${rel.name}' in the schema cache`);
      const cols = keys.map(ident).join(', ');
      const body = params.add(JSON.stringify(rows));
      return mutation(`insert into ${target} (${cols}) select ${cols} from json_populate_recordset(null::${target}, ${body}::json)`, { representation: 201, minimal: 201 });
    }

    if (req.method === 'PATCH' || req.method === 'DELETE') {
      let sql: string;
      if (req.method === 'PATCH') {
        if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw refusal(400, 'PGRST102', 'Empty or invalid json');
        const keys = Object.keys(req.body);
        const missing = keys.find((k) => !rel.columns.has(k));
        if (missing) throw refusal(400, 'PGRST204', `Could not find the '${missing}' column of '${rel.name}' in the schema cache`);
        if (keys.length === 0) return async () => ({ status: representation ? 200 : 204, body: representation ? '[]' : null, rows: 0, total: null });
        const body = params.add(JSON.stringify(req.body));
        const filters = withoutSelect(req.url.searchParams);
        const shape = parseQuery(filters, rel, target, params);
        sql = `update ${target} set ${keys.map((k) => `${ident(k)} = pgrst_body.${ident(k)}`).join(', ')}
               from (select * from json_populate_record(null::${target}, ${body}::json)) pgrst_body where ${shape.where}`;
      } else {
        const shape = parseQuery(withoutSelect(req.url.searchParams), rel, target, params);
        sql = `delete from ${target} where ${shape.where}`;
      }
      if (req.url.searchParams.has('limit') || req.url.searchParams.has('order')) throw new EmulatorGap('limited updates and deletes are not served');
      return mutation(sql, { representation: 200, minimal: 204 });
    }

    throw new EmulatorGap(`${req.method} on a table is not served`);
  }

  private rpc(req: WireRequest, name: string): (q: Queryable) => Promise<Outcome> {
    if ([...req.url.searchParams.keys()].length > 0) throw new EmulatorGap('filters and select= on RPC results are not served');
    const args = req.text === '' ? {} : req.body;
    if (!args || typeof args !== 'object' || Array.isArray(args)) throw refusal(400, 'PGRST102', 'Empty or invalid json');
    const keys = Object.keys(args);
    const routine = this.opts.schema.routine(name, keys);
    if (!routine) {
      throw refusal(
        404,
        'PGRST202',
        `Could not find the function ${EXPOSED_SCHEMA}.${name}(${[...keys].sort().join(', ')}) in the schema cache`,
        `Searched for the function ${EXPOSED_SCHEMA}.${name} with parameters ${[...keys].sort().join(', ') || 'none'}, but no matches were found in the schema cache.`,
      );
    }
    const params = new Params();
    const call = callSql(routine, keys, params, JSON.stringify(args));
    if (routine.returnsVoid) {
      return async (q) => {
        await q.query(`select ${call}`, params.values);
        return { status: 204, body: null, rows: 0, total: null };
      };
    }
    if (routine.returnsSet || routine.returnsComposite) {
      return async (q) => {
        const [row] = await q.query<{ body: string; n: number }>(
          `select coalesce(json_agg(pgrst_t), '[]')::text as body, count(*)::int as n from (select * from ${call} limit ${this.opts.maxRows}) pgrst_t`,
          params.values,
        );
        // A function returning one row type (not a set) answers with that row as an object.
        const body = routine.returnsSet ? row!.body : JSON.stringify((JSON.parse(row!.body) as unknown[])[0] ?? null);
        return { status: 200, body, rows: row!.n, total: null };
      };
    }
    return async (q) => {
      const [row] = await q.query<{ body: string }>(`select to_json(${call})::text as body`, params.values);
      return { status: 200, body: row!.body ?? 'null', rows: 1, total: null };
    };
  }
}

function withoutSelect(search: URLSearchParams): URLSearchParams {
  const copy = new URLSearchParams(search);
  copy.delete('select');
  return copy;
}

/**
 * `"public"."fn"("a" := (select "a" from pgrst_args), …)`: the JSON body becomes typed arguments through
 * json_to_record with the parameters' own types, as PostgREST builds its RPC calls.
 */
function callSql(routine: RoutineInfo, keys: string[], params: Params, body: string): string {
  const fn = `${ident(EXPOSED_SCHEMA)}.${ident(routine.name)}`;
  if (keys.length === 0) return `${fn}()`;
  const byName = new Map(routine.params.map((p) => [p.name, p]));
  const record = `json_to_record(${params.add(body)}::json) as pgrst_args(${keys.map((k) => `${ident(k)} ${byName.get(k)!.type}`).join(', ')})`;
  return `${fn}(${keys.map((k) => `${ident(k)} := (select ${ident(k)} from ${record})`).join(', ')})`;
}
