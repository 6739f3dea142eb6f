import type { UploadCheckpoint } from '../backend/ports';
import { AppError, type SerializedAppError } from '../lib/app-error';
import type { BytePatch } from '../media/location-read';
import type { ProcessedMedia, SniffedType } from '../media/media-types';
import type { LocationOutcome } from '../media/location-read';
import type { StoredCompressed } from '../media/text-compression';

/**
 * One file on its way into an album (PRODUCT.md §4):
 * `queued → reading → processing → uploading → finalizing → done`, plus `paused`, `failed`, `canceled`.
 */
export type TaskState =
  | 'queued'
  | 'reading'
  | 'processing'
  | 'uploading'
  | 'finalizing'
  | 'done'
  | 'paused'
  | 'failed'
  | 'canceled';

/** The states in which a runner is working on the task. */
export const ACTIVE_STATES = ['reading', 'processing', 'uploading', 'finalizing'] as const;
export type ActiveState = (typeof ACTIVE_STATES)[number];

export function isActive(state: TaskState): state is ActiveState {
  return (ACTIVE_STATES as readonly TaskState[]).includes(state);
}

/** The stages that talk to the backend; offline, they wait for the connection instead. */
export function isNetworkStage(state: TaskState): boolean {
  return state === 'uploading' || state === 'finalizing';
}

/** Nothing more will happen to the task unless the user removes it. */
export function isFinished(state: TaskState): boolean {
  return state === 'done' || state === 'canceled';
}

/** Where a stored object goes: the original, its preview (or a video's poster) and its thumbnail. */
export type UploadObjectRole = 'original' | 'preview' | 'poster' | 'thumb';

export interface UploadObject {
  role: UploadObjectRole;
  key: string;
  bytes: number;
  contentType: string;
  /** What the files adapter reported last; see [Note: Resuming multipart uploads] in task-runner.ts. */
  checkpoint: UploadCheckpoint | null;
  sentBytes: number;
  done: boolean;
}

/** What the media pipeline learnt, without the derived blobs (they live in the store's blob table). */
export interface ProcessedFacts extends Omit<ProcessedMedia, 'thumb' | 'preview'> {
  hasPreview: boolean;
  hasThumb: boolean;
  /** The original goes up gzip-compressed (its copy is the store's `packed` blob); absent: as it is. */
  stored?: StoredCompressed;
}

/**
 * What the reading stage decided about the original's location: the patches that blank it (applied to the
 * user's file whenever the original is read for upload), or why there are none. `album-keeps`: the album keeps
 * originals as they are.
 */
export interface LocationDecision {
  outcome: LocationOutcome | 'album-keeps';
  patches: BytePatch[];
}

/** The persisted record of one upload (IndexedDB, structured clone). The id is also the item's id. */
export interface UploadTask {
  id: string;
  albumId: string;
  filename: string;
  bytes: number;
  /** The browser's guess from the extension; only a hint, the type is decided from content. */
  declaredType: string;
  lastModified: number;
  state: TaskState;
  error: SerializedAppError | null;
  createdAt: string;
  updatedAt: string;
  /** Position inside its batch, to keep the order files were given in. */
  order: number;
  sniffed: SniffedType | null;
  /** Of the original as uploaded, location removed. */
  sha256: string | null;
  /**
   * Of the same bytes, base64, taken in the same read when the original goes up in one PUT: its `Content-MD5`,
   * so the bucket's adapter does not read the file a second time to hash it. Absent: the adapter hashes it.
   */
  md5?: string | null;
  /** Absent in tasks stored before location was removed: read again. */
  location?: LocationDecision | null;
  /**
   * `preview`: the person chose to send the preview in place of an original whose location could not be
   * removed (see [Note: An original that keeps its place]). Absent: the original is the user's file.
   */
  original?: 'preview';
  /** Of the preview, once it is to be sent as the original. */
  previewSha256?: string | null;
  /** The text of the XMP sidecar added with the file ([Note: Sidecars merge into their photo]). */
  sidecar?: string;
  processed: ProcessedFacts | null;
  reserved: boolean;
  /** Planned when uploading starts; each object keeps its own checkpoint. */
  objects: UploadObject[] | null;
  /** Bytes of the original confirmed sent. */
  bytesDone: number;
}

export interface NewTaskInput {
  id: string;
  albumId: string;
  filename: string;
  bytes: number;
  declaredType: string;
  lastModified: number;
  createdAt: string;
  order: number;
  sidecar?: string;
}

export function createTask(input: NewTaskInput): UploadTask {
  return {
    ...input,
    state: 'queued',
    error: null,
    updatedAt: input.createdAt,
    sniffed: null,
    sha256: null,
    location: null,
    processed: null,
    reserved: false,
    objects: null,
    bytesDone: 0,
  };
}

export type TaskEvent =
  /** A runner picks the task up; it goes to the first stage whose work is not yet persisted. */
  | { type: 'start' }
  /** The current stage's work is done and persisted. */
  | { type: 'advance' }
  | { type: 'pause' }
  | { type: 'resume' }
  /** The runner stopped without a fault (page closed, lock lost, offline): back in line. */
  | { type: 'interrupt' }
  | { type: 'fail'; error: SerializedAppError }
  | { type: 'retry' }
  /** Send the preview instead of an original whose location could not be removed. */
  | { type: 'previewOnly' }
  | { type: 'cancel' }
  /** A canceled task's item turned out to be in its album: the finalize went through before the cancel. */
  | { type: 'arrived' };

export type TaskEventType = TaskEvent['type'];

/** The first stage with work left, judged only from what is persisted: a resumed task never redoes a stage. */
export function resumeStage(task: UploadTask): ActiveState {
  if (task.sniffed === null || task.sha256 === null || !task.location) return 'reading';
  if (task.processed === null) return 'processing';
  if (task.objects === null || !task.reserved || task.objects.some((o) => !o.done)) return 'uploading';
  return 'finalizing';
}

type Target = TaskState | ((task: UploadTask) => TaskState);

const stopOrFail = { pause: 'paused', interrupt: 'queued', fail: 'failed', cancel: 'canceled' } as const;

/** Every allowed transition; anything not listed is refused. */
export const TRANSITIONS: Readonly<Record<TaskState, Partial<Record<TaskEventType, Target>>>> = {
  queued: { start: resumeStage, pause: 'paused', fail: 'failed', cancel: 'canceled' },
  reading: { advance: 'processing', ...stopOrFail },
  processing: { advance: 'uploading', ...stopOrFail },
  uploading: { advance: 'finalizing', ...stopOrFail },
  finalizing: { advance: 'done', ...stopOrFail },
  done: {},
  paused: { resume: 'queued', cancel: 'canceled' },
  failed: {
    retry: (task) => (task.error?.retryable === false ? 'failed' : 'queued'),
    previewOnly: (task) => (offersPreviewOnly(task) ? 'queued' : 'failed'),
    cancel: 'canceled',
  },
  canceled: { arrived: 'done' },
};

export function canTransition(task: UploadTask, type: TaskEventType): boolean {
  const target = TRANSITIONS[task.state][type];
  if (target === undefined) return false;
  const next = typeof target === 'function' ? target(task) : target;
  return next !== task.state;
}

/** Applies one event; throws a `validation/invalid` AppError for a transition the table does not allow. */
export function transition(task: UploadTask, event: TaskEvent, now: string = new Date().toISOString()): UploadTask {
  const target = TRANSITIONS[task.state][event.type];
  const next = target === undefined ? undefined : typeof target === 'function' ? target(task) : target;
  if (next === undefined || next === task.state) {
    throw new AppError('validation/invalid', `An upload that is ${task.state} cannot ${event.type}.`, {
      details: { from: task.state, event: event.type },
    });
  }
  return {
    ...task,
    state: next,
    error: event.type === 'fail' ? event.error : next === 'failed' ? task.error : null,
    ...(event.type === 'previewOnly' ? { original: 'preview' as const } : {}),
    updatedAt: now,
  };
}

/** The reason an upload stops for an original whose location could not be removed (`upload/unsupported`). */
export const LOCATION_LEFT = 'location';

/**
 * What a task stopped for an original whose location could not be removed asks of the person: to upload its
 * preview instead or skip it, or (a video, a file with no preview) only to skip it. Null for any other task.
 */
export type LocationChoice = 'preview-or-skip' | 'skip' | null;

export function locationChoiceOf(task: Pick<UploadTask, 'state' | 'error' | 'processed'>): LocationChoice {
  if (task.state !== 'failed' || task.error?.details?.reason !== LOCATION_LEFT) return null;
  return task.processed?.hasPreview === true ? 'preview-or-skip' : 'skip';
}

/** Stopped for an original whose location could not be removed, with a preview that can go instead. */
export const offersPreviewOnly = (task: Pick<UploadTask, 'state' | 'error' | 'processed'>): boolean =>
  locationChoiceOf(task) === 'preview-or-skip';
