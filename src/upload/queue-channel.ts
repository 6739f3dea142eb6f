import { AppError, toAppError, type SerializedAppError } from '../lib/app-error';
import { abortError } from '../lib/app-error';
import { log } from '../lib/log';

/** What a tab can ask of the queue; the running tab carries it out. */
export type CommandOp = 'pause' | 'resume' | 'cancel' | 'retry' | 'previewOnly' | 'remove' | 'pauseAll' | 'resumeAll' | 'clearFinished';

type ChannelMessage =
  | { type: 'changed'; ids: string[] }
  | { type: 'progress'; id: string; bytesDone: number }
  | { type: 'command'; reqId: string; op: CommandOp; id: string | null }
  | { type: 'reply'; reqId: string; error: SerializedAppError | null };

/** A command this tab sent that still waits for its answer. */
export interface PendingCommand {
  op: CommandOp;
  id: string | null;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export interface QueueChannelHandlers {
  /** Another tab changed these tasks in the store. */
  changed(ids: string[]): void;
  /** The running tab sent more of a task's original. */
  progress(id: string, bytesDone: number): void;
  /** Carries out another tab's command; null when this tab does not run the queue (the runner answers). */
  command(op: CommandOp, id: string | null): Promise<void> | null;
}

const PROGRESS_POST_INTERVAL_MS = 250;
const COMMAND_TIMEOUT_MS = 10_000;
/** Changes go out to other tabs a few at a time. */
const ANNOUNCE_DELAY_MS = 30;

/**
 * The queue's line between tabs (a BroadcastChannel): which tasks changed in the store, the running tab's
 * progress (which runs ahead of the store), and other tabs' commands to the running tab with its answers.
 */
export class QueueChannel {
  private channel: BroadcastChannel | null = null;
  private readonly pending = new Map<string, PendingCommand & { timer: ReturnType<typeof setTimeout> }>();
  private readonly changedIds = new Set<string>();
  private changedTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly lastProgressPost = new Map<string, number>();

  constructor(private readonly handlers: QueueChannelHandlers) {}

  /** Without BroadcastChannel (very old browsers) the tab keeps to itself and runs its own commands. */
  open(name: string): void {
    if (typeof BroadcastChannel === 'undefined') return;
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (ev: MessageEvent<ChannelMessage>) => this.onMessage(ev.data);
  }

  get isOpen(): boolean {
    return this.channel !== null;
  }

  /** Commands still waiting fail with an AbortError; changes not yet told are dropped. */
  close(): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(abortError());
    }
    this.pending.clear();
    if (this.changedTimer) clearTimeout(this.changedTimer);
    this.changedTimer = null;
    this.changedIds.clear();
    this.channel?.close();
    this.channel = null;
  }

  /** Tells other tabs which tasks changed in the store, a few at a time. */
  announce(ids: readonly string[]): void {
    for (const id of ids) this.changedIds.add(id);
    this.changedTimer ??= setTimeout(() => {
      this.changedTimer = null;
      const changed = [...this.changedIds];
      this.changedIds.clear();
      this.post({ type: 'changed', ids: changed });
    }, ANNOUNCE_DELAY_MS);
  }

  /** Tells other tabs how far the original of task `id` is sent, at most every 250 ms per task. */
  progress(id: string, bytesDone: number): void {
    const t = performance.now();
    if (t - (this.lastProgressPost.get(id) ?? -Infinity) >= PROGRESS_POST_INTERVAL_MS) {
      this.lastProgressPost.set(id, t);
      this.post({ type: 'progress', id, bytesDone });
    }
  }

  forget(id: string): void {
    this.lastProgressPost.delete(id);
  }

  /** Sends a command to the running tab; settles with its answer, or fails after 10 s without one. */
  request(op: CommandOp, id: string | null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const reqId = crypto.randomUUID();
      const timer = setTimeout(() => {
        this.pending.delete(reqId);
        reject(new AppError('upload/interrupted', 'The tab running the uploads did not answer. Try again.'));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(reqId, { op, id, resolve, reject, timer });
      this.post({ type: 'command', reqId, op, id });
    });
  }

  /** Hands over the commands still waiting for an answer: this tab runs the queue now and carries them out. */
  takePending(): PendingCommand[] {
    const taken: PendingCommand[] = [];
    for (const [reqId, p] of this.pending) {
      this.pending.delete(reqId);
      clearTimeout(p.timer);
      taken.push({ op: p.op, id: p.id, resolve: p.resolve, reject: p.reject });
    }
    return taken;
  }

  private onMessage(msg: ChannelMessage): void {
    if (!this.channel) return;
    switch (msg.type) {
      case 'changed':
        this.handlers.changed(msg.ids);
        return;
      case 'progress':
        this.handlers.progress(msg.id, msg.bytesDone);
        return;
      case 'command': {
        const done = this.handlers.command(msg.op, msg.id);
        if (!done) return;
        done.then(
          () => this.post({ type: 'reply', reqId: msg.reqId, error: null }),
          (e: unknown) => this.post({ type: 'reply', reqId: msg.reqId, error: toAppError(e, 'validation/invalid').toJSON() }),
        );
        return;
      }
      case 'reply': {
        const p = this.pending.get(msg.reqId);
        if (!p) return;
        this.pending.delete(msg.reqId);
        clearTimeout(p.timer);
        if (msg.error) p.reject(AppError.fromJSON(msg.error));
        else p.resolve();
        return;
      }
    }
  }

  private post(msg: ChannelMessage): void {
    if (!this.channel) return;
    try {
      this.channel.postMessage(msg);
    } catch (e) {
      log.warn('Upload queue could not tell other tabs', e);
    }
  }
}
