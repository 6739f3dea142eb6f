/**
 * A link's visitor talking to the `share-open` edge function: opening the link (with its password when it has
 * one), then the visit's counts, pages and URLs. Every answer's URLs go into one book with their expiry.
 *
 * [Note: A link that stops working while open]
 * `share-open` checks the link again on every call. Once one answers that the link is revoked, expired, used
 * up or gone (or that the visit is no longer valid), the visitor stops: every later call fails at once with
 * that error, without asking the server, so the page loads nothing more and listeners show why.
 */
import { AppError, isAppError } from '../../lib/app-error';
import type { CallOptions, FunctionsPort } from '../ports';
import type { MonthCount } from '../../domain/queries';
import { LinkUrlBook } from './link-url-book';
import type { ShareOpenAnswer, SharedItemsAnswer, SharedItemsQuery, SharedUrlsAnswer, SharedVariant } from '../link-types';
import { forgetVisit, keepVisit, keptVisit, visitorId } from './visitor-storage';

const FUNCTION = 'share-open';
const STOPPING = new Set(['share/expired', 'share/revoked', 'share/not-found', 'share/password-required']);

export class LinkVisitor {
  readonly book = new LinkUrlBook();
  private answer: ShareOpenAnswer | null = null;
  private stoppedBy: AppError | null = null;
  private readonly listeners = new Set<(error: AppError) => void>();

  constructor(
    private readonly functions: FunctionsPort,
    readonly token: string,
  ) {}

  /** The visit this tab already holds for the link, if any: the page shows it without opening again. */
  resume(): ShareOpenAnswer | null {
    const kept = keptVisit(this.token);
    if (kept) this.begin(kept);
    return kept;
  }

  /** Opens the link; `share/password-required`, `share/wrong-password`, `share/rate-limited` and the rest as AppErrors. */
  async open(password: string | undefined, opts: CallOptions = {}): Promise<ShareOpenAnswer> {
    const body = { op: 'open', token: this.token, visitor: visitorId(), ...(password === undefined ? {} : { password }) };
    const answer = await this.functions.invoke<ShareOpenAnswer>(FUNCTION, body, opts);
    keepVisit(this.token, answer);
    this.begin(answer);
    return answer;
  }

  get opened(): ShareOpenAnswer | null {
    return this.answer;
  }

  /** Why the visitor stopped (see [Note: A link that stops working while open]), or null. */
  get stopped(): AppError | null {
    return this.stoppedBy;
  }

  onStop(cb: (error: AppError) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  async counts(query: Pick<SharedItemsQuery, 'sort' | 'kind'>, opts: CallOptions = {}): Promise<MonthCount[]> {
    const answer = await this.call<{ months: MonthCount[] }>({ op: 'counts', ...query }, opts);
    return answer.months;
  }

  async items(query: SharedItemsQuery, opts: CallOptions = {}): Promise<SharedItemsAnswer> {
    const answer = await this.call<SharedItemsAnswer>({ op: 'items', ...query }, opts);
    const until = Date.parse(answer.expiresAt);
    for (const row of answer.rows) {
      this.book.record(row.id, 'thumb', row.thumbUrl, until);
      this.book.record(row.id, 'preview', row.previewUrl ?? row.posterUrl, until);
      this.book.record(row.id, 'original', row.originalUrl, until);
    }
    return answer;
  }

  async urls(itemIds: string[], variant: SharedVariant, download: boolean, opts: CallOptions = {}): Promise<Map<string, string>> {
    const answer = await this.call<SharedUrlsAnswer>({ op: 'urls', itemIds, variant, ...(download ? { download } : {}) }, opts);
    const until = Date.parse(answer.expiresAt);
    const out = new Map<string, string>();
    for (const [id, url] of Object.entries(answer.urls)) {
      // A download URL carries its own Content-Disposition: it is not the one to show in the viewer.
      if (!download) this.book.record(id, variant, url, until);
      out.set(id, url);
    }
    return out;
  }

  private begin(answer: ShareOpenAnswer): void {
    this.answer = answer;
    this.stoppedBy = null;
  }

  private async call<T>(body: Record<string, unknown>, opts: CallOptions): Promise<T> {
    if (this.stoppedBy) throw this.stoppedBy;
    if (!this.answer) throw new AppError('share/password-required', 'The link has not been opened yet.');
    try {
      return await this.functions.invoke<T>(FUNCTION, { ...body, visit: this.answer.visit }, opts);
    } catch (e) {
      if (isAppError(e) && STOPPING.has(e.code) && !this.stoppedBy) {
        this.stoppedBy = e;
        forgetVisit(this.token);
        this.listeners.forEach((l) => l(e));
      }
      throw e;
    }
  }
}
