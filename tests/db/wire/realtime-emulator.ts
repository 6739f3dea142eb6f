/**
 * An emulator of a hosted project's Realtime service for tests: a WebSocket server on 127.0.0.1 speaking the
 * Phoenix channel protocol as Supabase Realtime does (https://supabase.com/docs/guides/realtime/protocol),
 * with the V2 serializer realtime-js uses (realtime-frames.ts). supabase-js connects to
 * `ws://127.0.0.1:<port>/realtime/v1/websocket?apikey=…&vsn=2.0.0`; the REST broadcast endpoints
 * (`/realtime/v1/api/broadcast…`) arrive through the wire emulator's `fetch`.
 *
 * Served: `phx_join` (broadcast, presence, postgres_changes), `phx_leave`, `heartbeat`, `access_token`,
 * broadcast (to the other members, or to all with `broadcast.self`; acknowledged with `broadcast.ack`),
 * presence track/untrack (`presence_state` to a joiner, `presence_diff` to all), postgres_changes from the
 * real database (realtime-changes.ts): RLS decides who hears an insert or update, never a delete; and
 * broadcasts sent from the database (rows of realtime.messages) to the channels of their topic.
 * Private channels (`config.private`) follow Realtime Authorization (realtime-authorization.ts): a join is
 * refused unless the caller may read broadcast or presence on the topic, presence is shown and tracked and
 * broadcasts are received and sent only as the policies allow, and a private and a public channel of the
 * same name are apart. With `privateOnly` (the project's "Allow public access" turned off) public joins are
 * refused.
 * A channel's JWT is verified with the project's secret; when it expires the channel is closed, as Realtime
 * does. Anything else is answered as Realtime would refuse it where possible and listed in `unserved`, so a
 * test can require that nothing the adapter sent went unserved.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Harness, Row } from '../db-harness';
import { verifyJwt, type Claims } from './jwt-hs256';
import { RealtimeAuthorization } from './realtime-authorization';
import { ChangeFeed, type CapturedChange, type ChangeData, type ChangeOp, type DatabaseMessage } from './realtime-changes';
import { decodeBinary, decodeText, encodeText, encodeUserBroadcast, FrameError, type Frame } from './realtime-frames';
import { bearerToken, emptyResponse, jsonResponse, type WireRequest } from './wire-http';

interface Filter {
  column: string;
  op: 'eq' | 'neq' | 'in';
  values: string[];
}

interface Binding {
  id: number;
  event: '*' | ChangeOp;
  schema: string;
  table: string;
  filter?: string;
  parsed: Filter | null;
}

interface PresenceMeta extends Row {
  phx_ref: string;
}

/** What a private channel's caller may do there (null: not asked yet); a public channel allows everything. */
interface Policies {
  broadcastRead: boolean;
  presenceRead: boolean | null;
  broadcastWrite: boolean | null;
  presenceWrite: boolean | null;
}

interface Channel {
  conn: Connection;
  topic: string;
  private: boolean;
  policies: Policies | null;
  joinRef: string;
  claims: Claims;
  /** The token the channel was joined or last refreshed with. */
  token: string;
  broadcastSelf: boolean;
  broadcastAck: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  presence: PresenceMeta | null;
  bindings: Binding[];
  expiry: NodeJS.Timeout | null;
}

interface Connection {
  ws: WebSocket;
  channels: Map<string, Channel>;
  /** Frames are served one after another, as a Phoenix channel process does, even when one waits for the database. */
  queue: Promise<void>;
}

export interface RealtimeEmulatorOptions {
  db: Harness;
  jwtSecret: string;
  anonKey: string;
  /** The project's Realtime setting "Allow public access" turned off: only private channels may be joined. */
  privateOnly?: boolean;
}

/** Realtime takes a token a little past its expiry, as the REST gateway does (clock skew). */
const LEEWAY_SECONDS = 30;
const OPS = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);

function jsonText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function parseFilter(filter: string): Filter | string {
  const m = /^([^=]+)=(eq|neq|in)\.(.*)$/s.exec(filter);
  if (!m) return `postgres_changes filter "${filter}" is not served (served: col=eq.v, col=neq.v, col=in.(a,b))`;
  const [, column, op, raw] = m as unknown as [string, string, Filter['op'], string];
  if (op !== 'in') return { column, op, values: [raw] };
  const list = /^\((.*)\)$/s.exec(raw);
  if (!list) return `postgres_changes filter "${filter}": in. takes a list in parentheses`;
  return { column, op, values: list[1]!.split(',').map((v) => v.trim().replace(/^"(.*)"$/s, '$1')) };
}

/** Realtime's `is_visible_through_filters`: a missing column (a delete without it) matches no filter. */
function passes(filter: Filter | null, row: Row | null): boolean {
  if (!filter) return true;
  if (!row || !(filter.column in row)) return false;
  const value = jsonText(row[filter.column]);
  if (value === null) return false;
  if (filter.op === 'eq') return value === filter.values[0];
  if (filter.op === 'neq') return value !== filter.values[0];
  return filter.values.includes(value);
}

export class RealtimeEmulator {
  /** Every frame, request or connection the emulator does not serve, as `what: why`. */
  readonly unserved: string[] = [];
  private readonly connections = new Set<Connection>();
  private server!: Server;
  private wss!: WebSocketServer;
  private feed!: ChangeFeed;
  private auth!: RealtimeAuthorization;
  private port = 0;

  private constructor(private readonly opts: RealtimeEmulatorOptions) {}

  static async start(opts: RealtimeEmulatorOptions): Promise<RealtimeEmulator> {
    const emulator = new RealtimeEmulator(opts);
    emulator.auth = new RealtimeAuthorization(opts.db);
    emulator.feed = await ChangeFeed.start(
      opts.db,
      (change) => emulator.deliverChange(change),
      (message) => emulator.deliverMessage(message),
    );
    emulator.wss = new WebSocketServer({ noServer: true });
    emulator.server = createServer((req, res) => {
      emulator.unserved.push(`HTTP ${req.method ?? ''} ${req.url ?? ''}: plain HTTP to the WebSocket port`);
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"Not Found"}');
    });
    emulator.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => emulator.upgrade(req, socket, head));
    await new Promise<void>((resolve) => emulator.server.listen(0, '127.0.0.1', resolve));
    const address = emulator.server.address();
    emulator.port = typeof address === 'object' && address ? address.port : 0;
    return emulator;
  }

  /** The project URL for supabase-js: its Realtime client connects here; HTTP goes to the wire `fetch`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** How many WebSocket connections are open (a test can check that clients hang up). */
  get openConnections(): number {
    return this.connections.size;
  }

  /** Cuts every client's connection, as a network drop or a server restart would; clients reconnect and rejoin. */
  dropConnections(): void {
    for (const conn of this.connections) conn.ws.terminate();
  }

  /** A request the wire emulator served may have committed changes: read them now (PGlite has no LISTEN). */
  changesMayHaveCommitted(): void {
    if (this.opts.db.kind === 'pglite') void this.feed.kick();
  }

  /** `/realtime/v1/*` over HTTP: the broadcast endpoints realtime-js uses when a channel is not joined. */
  async handleHttp(req: WireRequest, path: string): Promise<Response | null> {
    if (req.method !== 'POST' || !path.startsWith('/api/broadcast')) return null;
    const token = bearerToken(req.headers);
    const verified = verifyJwt(token ?? this.opts.anonKey, this.opts.jwtSecret, LEEWAY_SECONDS);
    if (!verified.ok) return jsonResponse({ message: 'Invalid JWT' }, 401);
    const claims = verified.claims;
    const single = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/.exec(path);
    const type = req.headers.get('Content-Type') ?? '';
    if (!type.startsWith('application/json')) {
      this.unserved.push(`POST /realtime/v1${path}: Content-Type ${type || 'none'} is not served`);
      return jsonResponse({ message: 'Unsupported Media Type' }, 415);
    }
    if (single) {
      if (req.body === undefined) return jsonResponse({ errors: { payload: ["can't be blank"] } }, 422);
      const topic = decodeURIComponent(single[1]!);
      const isPrivate = req.url.searchParams.get('private') === 'true';
      // Realtime's single broadcast: a private topic needs the broadcast write policy, else 403.
      if (isPrivate && !(await this.auth.write(topic, claims, 'broadcast'))) return jsonResponse({ message: 'Unauthorized' }, 403);
      this.fanOutBroadcast(`realtime:${topic}`, isPrivate, decodeURIComponent(single[2]!), req.body);
      return emptyResponse(202);
    }
    if (path !== '/api/broadcast') return null;
    const messages = (req.body as { messages?: unknown } | undefined)?.messages;
    if (!Array.isArray(messages)) return jsonResponse({ errors: { messages: ["can't be blank"] } }, 422);
    for (const m of messages as { topic?: unknown; event?: unknown; payload?: unknown; private?: unknown }[]) {
      if (typeof m.topic !== 'string' || typeof m.event !== 'string') return jsonResponse({ errors: { messages: ['topic and event are required'] } }, 422);
    }
    // Realtime's batch broadcast: private messages of a topic the caller may not write to are dropped quietly.
    const allowed = new Map<string, boolean>();
    for (const m of messages as { topic: string; event: string; payload?: unknown; private?: unknown }[]) {
      const isPrivate = m.private === true;
      if (isPrivate) {
        if (!allowed.has(m.topic)) allowed.set(m.topic, await this.auth.write(m.topic, claims, 'broadcast'));
        if (!allowed.get(m.topic)) continue;
      }
      this.fanOutBroadcast(`realtime:${m.topic}`, isPrivate, m.event, m.payload ?? {});
    }
    return emptyResponse(202);
  }

  async close(): Promise<void> {
    for (const conn of this.connections) conn.ws.terminate();
    this.connections.clear();
    await this.feed.close();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refuse = (status: string, why: string | null) => {
      if (why) this.unserved.push(`WebSocket ${url.pathname}${url.search}: ${why}`);
      socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    };
    if (url.pathname !== '/realtime/v1/websocket') return refuse('404 Not Found', 'no such WebSocket endpoint');
    // Realtime refuses the handshake for a missing or wrong API key.
    if (url.searchParams.get('apikey') !== this.opts.anonKey) return refuse('403 Forbidden', null);
    const vsn = url.searchParams.get('vsn') ?? '1.0.0';
    if (vsn !== '2.0.0') return refuse('400 Bad Request', `serializer vsn ${vsn} is not served (realtime-js sends 2.0.0)`);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
  }

  private connected(ws: WebSocket): void {
    const conn: Connection = { ws, channels: new Map(), queue: Promise.resolve() };
    this.connections.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      conn.queue = conn.queue.then(async () => {
        try {
          await this.received(conn, data, isBinary);
        } catch (e) {
          this.unserved.push(`frame: ${e instanceof FrameError ? '' : 'emulator failure: '}${(e as Error).message}`);
        }
      });
    });
    ws.on('close', () => {
      this.connections.delete(conn);
      for (const channel of [...conn.channels.values()]) this.removeChannel(channel);
    });
    ws.on('error', () => undefined);
  }

  private send(conn: Connection, data: string | Buffer): void {
    if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(data);
  }

  private reply(conn: Connection, frame: Frame, status: 'ok' | 'error', response: Record<string, unknown> = {}): void {
    this.send(conn, encodeText({ joinRef: frame.joinRef, ref: frame.ref, topic: frame.topic, event: 'phx_reply', payload: { status, response } }));
  }

  private async received(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary) {
      const push = decodeBinary(buffer);
      const channel = conn.channels.get(push.topic);
      if (!channel || channel.joinRef !== push.joinRef) return this.notJoined(conn, { joinRef: push.joinRef, ref: push.ref, topic: push.topic, event: 'broadcast', payload: null });
      await this.broadcastFrom(channel, push.event, push.payload, push.encoding, push.ref);
      return;
    }
    const frame = decodeText(buffer.toString('utf8'));
    if (frame.topic === 'phoenix') {
      if (frame.event === 'heartbeat') return this.reply(conn, frame, 'ok');
      this.unserved.push(`phoenix ${frame.event}: not served`);
      return;
    }
    if (frame.event === 'phx_join') return await this.join(conn, frame);
    const channel = conn.channels.get(frame.topic);
    if (frame.event === 'phx_leave') {
      this.reply(conn, frame, 'ok');
      if (channel) {
        this.removeChannel(channel);
        this.send(conn, encodeText({ joinRef: channel.joinRef, ref: channel.joinRef, topic: channel.topic, event: 'phx_close', payload: {} }));
      }
      return;
    }
    if (!channel || channel.joinRef !== frame.joinRef) return this.notJoined(conn, frame);
    switch (frame.event) {
      case 'access_token':
        return await this.accessToken(channel, frame);
      case 'broadcast': {
        const p = (frame.payload ?? {}) as { type?: unknown; event?: unknown; payload?: unknown };
        if (p.type !== 'broadcast' || typeof p.event !== 'string') {
          this.unserved.push(`${frame.topic} broadcast: payload without type 'broadcast' and an event`);
          return;
        }
        return await this.broadcastFrom(channel, p.event, frame.payload, 'text', frame.ref);
      }
      case 'presence':
        return await this.presence(channel, frame);
      default:
        this.unserved.push(`${frame.topic} ${frame.event}: event not served`);
        this.reply(conn, frame, 'error', { reason: `unknown event ${frame.event}` });
    }
  }

  /** Phoenix answers a push to a channel the socket has not joined with phx_close. */
  private notJoined(conn: Connection, frame: Frame): void {
    this.unserved.push(`${frame.topic} ${frame.event}: pushed to a channel that is not joined`);
    this.send(conn, encodeText({ joinRef: frame.joinRef, ref: frame.ref, topic: frame.topic, event: 'phx_close', payload: {} }));
  }

  private verify(token: unknown): { ok: true; claims: Claims } | { ok: false; reason: string } {
    const verified = verifyJwt(String(token), this.opts.jwtSecret, LEEWAY_SECONDS);
    if (verified.ok) return verified;
    return { ok: false, reason: verified.reason === 'expired' ? 'Token has expired' : 'Invalid JWT' };
  }

  private async join(conn: Connection, frame: Frame): Promise<void> {
    const payload = (frame.payload ?? {}) as {
      access_token?: unknown;
      config?: {
        broadcast?: { self?: unknown; ack?: unknown };
        presence?: { key?: unknown; enabled?: unknown };
        postgres_changes?: { event?: unknown; schema?: unknown; table?: unknown; filter?: unknown }[];
        private?: unknown;
      };
    };
    const config = payload.config ?? {};
    const refuse = (reason: string, gap: boolean) => {
      if (gap) this.unserved.push(`${frame.topic} phx_join: ${reason}`);
      this.reply(conn, frame, 'error', { reason });
    };
    if (!frame.topic.startsWith('realtime:')) return refuse(`topic ${frame.topic} is not a realtime: topic`, true);
    const isPrivate = config.private === true;
    if (this.opts.privateOnly && !isPrivate) return refuse('PrivateOnly: This project only allows private channels', false);
    const joinToken = String(payload.access_token ?? this.opts.anonKey);
    const verified = this.verify(joinToken);
    if (!verified.ok) return refuse(verified.reason, false);
    const role = verified.claims.role;
    if (role !== 'anon' && role !== 'authenticated') return refuse(`channels as role ${String(role)} are not served`, true);

    const bindings: Binding[] = [];
    for (const pc of config.postgres_changes ?? []) {
      const event = String(pc.event ?? '');
      const schema = String(pc.schema ?? '');
      const table = typeof pc.table === 'string' ? pc.table : undefined;
      const filter = typeof pc.filter === 'string' ? pc.filter : undefined;
      if (!OPS.has(event)) return refuse(`postgres_changes event ${event} is not one of *, INSERT, UPDATE, DELETE`, true);
      if (!table || table === '*' || schema === '*') return refuse('postgres_changes on every table of a schema are not served', true);
      // A table outside the publication is accepted, as Realtime does; its changes simply never come.
      if (!this.feed.table(schema, table) && !(await this.feed.exists(schema, table))) return refuse(`${schema}.${table} does not exist`, true);
      const parsed = filter === undefined ? null : parseFilter(filter);
      if (typeof parsed === 'string') return refuse(parsed, true);
      bindings.push({ id: randomInt(1, 2 ** 31 - 1), event: event as Binding['event'], schema, table, ...(filter === undefined ? {} : { filter }), parsed });
    }

    const subTopic = frame.topic.slice('realtime:'.length);
    const presenceEnabled = config.presence?.enabled === true;
    let policies: Policies | null = null;
    if (isPrivate) {
      const read = await this.auth.read(subTopic, verified.claims, presenceEnabled ? ['broadcast', 'presence'] : ['broadcast']);
      if (!read.broadcast && !read.presence) return refuse(`Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`, false);
      policies = { broadcastRead: read.broadcast === true, presenceRead: read.presence, broadcastWrite: null, presenceWrite: null };
    }

    // A second join of the same topic on one socket replaces the first, as Phoenix does.
    const previous = conn.channels.get(frame.topic);
    if (previous) this.removeChannel(previous);
    const key = typeof config.presence?.key === 'string' && config.presence.key !== '' ? config.presence.key : randomUUID();
    const channel: Channel = {
      conn,
      topic: frame.topic,
      private: isPrivate,
      policies,
      joinRef: frame.joinRef ?? frame.ref ?? '',
      claims: verified.claims,
      token: joinToken,
      broadcastSelf: config.broadcast?.self === true,
      broadcastAck: config.broadcast?.ack === true,
      presenceKey: key,
      presenceEnabled,
      presence: null,
      bindings,
      expiry: null,
    };
    conn.channels.set(frame.topic, channel);
    this.scheduleExpiry(channel);
    this.reply(conn, frame, 'ok', {
      postgres_changes: bindings.map((b) => ({ id: b.id, event: b.event, schema: b.schema, table: b.table, ...(b.filter === undefined ? {} : { filter: b.filter }) })),
    });
    if (channel.presenceEnabled && this.mayReadPresence(channel)) this.push(channel, 'presence_state', this.presenceState(channel));
    if (bindings.length > 0) {
      this.push(channel, 'system', { channel: frame.topic.slice('realtime:'.length), extension: 'postgres_changes', message: 'Subscribed to PostgreSQL', status: 'ok' });
    }
  }

  /** A message the channel pushes to its own client (carries the join ref). */
  private push(channel: Channel, event: string, payload: unknown): void {
    this.send(channel.conn, encodeText({ joinRef: channel.joinRef, ref: null, topic: channel.topic, event, payload }));
  }

  private scheduleExpiry(channel: Channel): void {
    if (channel.expiry) clearTimeout(channel.expiry);
    channel.expiry = null;
    const exp = channel.claims.exp;
    if (typeof exp !== 'number') return;
    const ms = Math.max(0, (exp + LEEWAY_SECONDS) * 1000 - Date.now());
    channel.expiry = setTimeout(() => this.closeChannel(channel, 'Token has expired'), Math.min(ms, 2 ** 31 - 1));
    channel.expiry.unref();
  }

  /** Realtime ends a channel whose token is no longer valid with a system error and phx_close. */
  private closeChannel(channel: Channel, message: string): void {
    if (channel.conn.channels.get(channel.topic) !== channel) return;
    this.push(channel, 'system', { channel: channel.topic.slice('realtime:'.length), extension: 'system', message, status: 'error' });
    this.removeChannel(channel);
    this.send(channel.conn, encodeText({ joinRef: channel.joinRef, ref: channel.joinRef, topic: channel.topic, event: 'phx_close', payload: {} }));
  }

  /**
   * A new token on a joined channel (supabase-js sends one after each refresh, and the anon key after a
   * sign-out). Realtime ignores the token it already has; any other it verifies and, for a private channel,
   * asks the read policies again with its claims, the same user's refreshed token too
   * (realtime_channel.ex `handle_in("access_token", …)`): a read that was allowed and no longer is ends the
   * channel ("You no longer have permission…"). Changes of a postgres_changes binding are filtered with the
   * new claims from then on.
   */
  private async accessToken(channel: Channel, frame: Frame): Promise<void> {
    const token = (frame.payload as { access_token?: unknown } | null)?.access_token;
    if (token === undefined || token === null || token === channel.token) return;
    const verified = this.verify(token);
    if (!verified.ok) return this.closeChannel(channel, verified.reason);
    const { claims } = verified;
    if (claims.role !== 'anon' && claims.role !== 'authenticated') {
      this.unserved.push(`${channel.topic} access_token: a token for role ${String(claims.role)} is not served`);
    }
    if (channel.private && channel.policies) {
      const subTopic = channel.topic.slice('realtime:'.length);
      const before = channel.policies;
      const read = await this.auth.read(subTopic, claims, channel.presenceEnabled ? ['broadcast', 'presence'] : ['broadcast']);
      if ((before.broadcastRead && read.broadcast === false) || (before.presenceRead === true && read.presence === false)) {
        return this.closeChannel(channel, `You no longer have permission to read from this Channel topic: ${subTopic}`);
      }
      channel.policies = { broadcastRead: read.broadcast === true, presenceRead: read.presence, broadcastWrite: null, presenceWrite: null };
    }
    channel.claims = claims;
    channel.token = String(token);
    this.scheduleExpiry(channel);
  }

  private removeChannel(channel: Channel): void {
    if (channel.conn.channels.get(channel.topic) !== channel) return;
    channel.conn.channels.delete(channel.topic);
    if (channel.expiry) clearTimeout(channel.expiry);
    if (channel.presence) {
      const left = channel.presence;
      channel.presence = null;
      this.presenceDiff(channel, {}, { [channel.presenceKey]: { metas: [left] } });
    }
  }

  /** The channels joined to a topic: a private and a public channel of the same name are apart, as in Realtime. */
  private members(topic: string, isPrivate: boolean): Channel[] {
    const out: Channel[] = [];
    for (const conn of this.connections) {
      const channel = conn.channels.get(topic);
      if (channel && channel.private === isPrivate) out.push(channel);
    }
    return out;
  }

  private mayReadBroadcast(channel: Channel): boolean {
    return !channel.policies || channel.policies.broadcastRead;
  }

  private mayReadPresence(channel: Channel): boolean {
    return !channel.policies || channel.policies.presenceRead === true;
  }

  /** Realtime asks the write policy of a private channel once, on its first send of that kind. */
  private async mayWrite(channel: Channel, extension: 'broadcast' | 'presence'): Promise<boolean> {
    const policies = channel.policies;
    if (!policies) return true;
    const topic = channel.topic.slice('realtime:'.length);
    if (extension === 'broadcast') return (policies.broadcastWrite ??= await this.auth.write(topic, channel.claims, 'broadcast'));
    if (policies.presenceRead === null) policies.presenceRead = (await this.auth.read(topic, channel.claims, ['presence'])).presence;
    return (policies.presenceWrite ??= await this.auth.write(topic, channel.claims, 'presence'));
  }

  private async broadcastFrom(sender: Channel, event: string, payload: unknown, encoding: 'json' | 'binary' | 'text', ref: string | null): Promise<void> {
    // Refused on a private channel: dropped without a word (no ack either), as Realtime does.
    if (!(await this.mayWrite(sender, 'broadcast'))) return;
    for (const member of this.members(sender.topic, sender.private)) {
      if (member === sender && !sender.broadcastSelf) continue;
      if (!this.mayReadBroadcast(member)) continue;
      if (encoding === 'text') this.send(member.conn, encodeText({ joinRef: null, ref: null, topic: sender.topic, event: 'broadcast', payload }));
      else this.send(member.conn, encodeUserBroadcast(sender.topic, event, payload, encoding));
    }
    if (sender.broadcastAck && ref) this.reply(sender.conn, { joinRef: sender.joinRef, ref, topic: sender.topic, event: 'broadcast', payload: null }, 'ok');
  }

  /** A broadcast sent over HTTP or from the database: to every member allowed to receive it, as a JSON user broadcast. */
  private fanOutBroadcast(topic: string, isPrivate: boolean, event: string, payload: unknown): void {
    for (const member of this.members(topic, isPrivate)) {
      if (this.mayReadBroadcast(member)) this.send(member.conn, encodeUserBroadcast(topic, event, payload, 'json'));
    }
  }

  /** A row of realtime.messages committed: Realtime broadcasts it to the channels of its topic. */
  private deliverMessage(message: DatabaseMessage): void {
    if (message.extension !== 'broadcast') return;
    this.fanOutBroadcast(`realtime:${message.topic}`, message.private, message.event, message.payload);
  }

  private async presence(channel: Channel, frame: Frame): Promise<void> {
    const p = (frame.payload ?? {}) as { event?: unknown; payload?: unknown };
    if (p.event === 'track') {
      // Refused on a private channel: Realtime replies with a bare error.
      if (!(await this.mayWrite(channel, 'presence'))) return this.reply(channel.conn, frame, 'error');
      const meta = p.payload && typeof p.payload === 'object' && !Array.isArray(p.payload) ? (p.payload as Row) : {};
      const previous = channel.presence;
      const next: PresenceMeta = { ...meta, phx_ref: randomBytes(12).toString('base64url'), ...(previous ? { phx_ref_prev: previous.phx_ref } : {}) };
      channel.presence = next;
      // Realtime turns presence on for a channel that tracks, and sends it the state it missed.
      if (!channel.presenceEnabled) {
        channel.presenceEnabled = true;
        if (this.mayReadPresence(channel)) this.push(channel, 'presence_state', this.presenceState(channel));
      }
      this.reply(channel.conn, frame, 'ok');
      this.presenceDiff(channel, { [channel.presenceKey]: { metas: [next] } }, previous ? { [channel.presenceKey]: { metas: [previous] } } : {});
      return;
    }
    if (p.event === 'untrack') {
      const previous = channel.presence;
      channel.presence = null;
      this.reply(channel.conn, frame, 'ok');
      if (previous) this.presenceDiff(channel, {}, { [channel.presenceKey]: { metas: [previous] } });
      return;
    }
    this.unserved.push(`${channel.topic} presence ${String(p.event)}: not served`);
    this.reply(channel.conn, frame, 'error', { reason: 'unknown presence event' });
  }

  private presenceState(of: Channel): Record<string, { metas: PresenceMeta[] }> {
    const state: Record<string, { metas: PresenceMeta[] }> = {};
    for (const member of this.members(of.topic, of.private)) {
      if (!member.presence) continue;
      (state[member.presenceKey] ??= { metas: [] }).metas.push(member.presence);
    }
    return state;
  }

  private presenceDiff(from: Channel, joins: Record<string, { metas: PresenceMeta[] }>, leaves: Record<string, { metas: PresenceMeta[] }>): void {
    for (const member of this.members(from.topic, from.private)) {
      if (member.presenceEnabled && this.mayReadPresence(member)) {
        this.send(member.conn, encodeText({ joinRef: null, ref: null, topic: from.topic, event: 'presence_diff', payload: { joins, leaves } }));
      }
    }
  }

  /** One change to every channel with a matching binding that may see it, one message per channel. */
  private async deliverChange(change: CapturedChange): Promise<void> {
    const { info, op } = change;
    const decided = new Map<string, Promise<boolean>>();
    const shaped = new Map<string, Promise<ChangeData>>();
    const sends: Promise<void>[] = [];
    for (const conn of this.connections) {
      for (const channel of conn.channels.values()) {
        const ids = channel.bindings
          .filter((b) => b.schema === info.schema && b.table === info.table && (b.event === '*' || b.event === op))
          .filter((b) => passes(b.parsed, change.record) || (op === 'DELETE' && passes(b.parsed, change.identity)))
          .map((b) => b.id);
        if (ids.length === 0) continue;
        const claims = channel.claims;
        const who = JSON.stringify(claims);
        if (!decided.has(who)) decided.set(who, this.feed.visible(change, claims));
        const role = String(claims.role);
        if (!shaped.has(role)) shaped.set(role, this.feed.dataFor(change, role));
        sends.push(
          (async () => {
            if (!(await decided.get(who))) return;
            const data = await shaped.get(role)!;
            // Unsubscribed while the check ran: nothing more reaches that channel.
            if (conn.channels.get(channel.topic) !== channel) return;
            this.send(conn, encodeText({ joinRef: null, ref: null, topic: channel.topic, event: 'postgres_changes', payload: { ids, data } }));
          })(),
        );
      }
    }
    const results = await Promise.allSettled(sends);
    for (const r of results) if (r.status === 'rejected') this.unserved.push(`postgres_changes on ${info.entity}: emulator failure: ${String((r.reason as Error)?.message ?? r.reason)}`);
  }
}
