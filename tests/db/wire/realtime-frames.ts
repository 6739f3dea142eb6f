/**
 * Phoenix channel frames as Supabase Realtime speaks them with `vsn=2.0.0` (what realtime-js sends by default):
 * text frames are JSON arrays `[join_ref, ref, topic, event, payload]`; a broadcast a client sends on a joined
 * channel is a binary "user broadcast push" (kind 3), and the server fans user broadcasts out as binary "user
 * broadcast" frames (kind 4). Layouts as in Realtime's RealtimeWeb.Socket.V2Serializer:
 *   3: kind, join_ref size, ref size, topic size, event size, metadata size, encoding (0 binary, 1 JSON),
 *      join_ref, ref, topic, event, metadata, payload
 *   4: kind, topic size, event size, metadata size, encoding, topic, event, metadata, payload
 */

export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast a client sent as a binary frame: its event and payload (JSON-decoded when sent as JSON). */
export interface UserBroadcastPush {
  joinRef: string;
  ref: string;
  topic: string;
  event: string;
  encoding: 'json' | 'binary';
  payload: unknown;
  metadata: Record<string, unknown>;
}

const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;

export class FrameError extends Error {}

export function decodeText(text: string): Frame {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || value.length < 5) throw new FrameError(`expected a V2 array, got ${text.slice(0, 200)}`);
  const [joinRef, ref, topic, event, payload] = value as unknown[];
  if (typeof topic !== 'string' || typeof event !== 'string') throw new FrameError(`a frame without topic or event: ${text.slice(0, 200)}`);
  const refOf = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return { joinRef: refOf(joinRef), ref: refOf(ref), topic, event, payload };
}

export function decodeBinary(buf: Buffer): UserBroadcastPush {
  if (buf.length < 7 || buf[0] !== USER_BROADCAST_PUSH) throw new FrameError(`a binary frame of kind ${buf[0] ?? 'none'} (only user broadcast pushes are served)`);
  const sizes = [buf[1]!, buf[2]!, buf[3]!, buf[4]!, buf[5]!];
  const encoding = buf[6] === 1 ? 'json' : 'binary';
  let offset = 7;
  const [joinRef, ref, topic, event, metadata] = sizes.map((size) => {
    const part = buf.subarray(offset, offset + size).toString('utf8');
    offset += size;
    return part;
  }) as [string, string, string, string, string];
  const body = buf.subarray(offset);
  return {
    joinRef,
    ref,
    topic,
    event,
    encoding,
    payload: encoding === 'json' ? JSON.parse(body.toString('utf8')) : body,
    metadata: metadata ? (JSON.parse(metadata) as Record<string, unknown>) : {},
  };
}

export function encodeText(frame: Frame): string {
  return JSON.stringify([frame.joinRef, frame.ref, frame.topic, frame.event, frame.payload]);
}

/** A user broadcast as the server sends it to members (kind 4); JSON payloads are sent JSON-encoded. */
export function encodeUserBroadcast(topic: string, event: string, payload: unknown, encoding: 'json' | 'binary'): Buffer {
  const t = Buffer.from(topic, 'utf8');
  const e = Buffer.from(event, 'utf8');
  if (t.length > 255 || e.length > 255) throw new FrameError('topic and event must fit in 255 bytes');
  const body = encoding === 'json' ? Buffer.from(JSON.stringify(payload), 'utf8') : (payload as Buffer);
  return Buffer.concat([Buffer.from([USER_BROADCAST, t.length, e.length, 0, encoding === 'json' ? 1 : 0]), t, e, body]);
}
