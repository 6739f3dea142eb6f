import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import {
  TRANSITIONS,
  canTransition,
  createTask,
  resumeStage,
  transition,
  type TaskEvent,
  type TaskState,
  type UploadTask,
} from './upload-task';

const T0 = '2026-01-01T00:00:00.000Z';

function fresh(): UploadTask {
  return createTask({
    id: 'b8a4f5e6-0000-4000-8000-000000000001',
    albumId: 'album-1',
    filename: 'beach.jpg',
    bytes: 1000,
    declaredType: 'image/jpeg',
    lastModified: 0,
    createdAt: T0,
    order: 0,
  });
}

function run(task: UploadTask, ...events: TaskEvent[]): UploadTask {
  return events.reduce((t, e) => transition(t, e, T0), task);
}

const interrupted = new AppError('upload/interrupted', 'Connection lost').toJSON();
const empty = new AppError('upload/empty', 'The file is empty.', { retryable: false }).toJSON();

/** A task whose reading and processing results are already stored. */
function processed(): UploadTask {
  return {
    ...fresh(),
    sniffed: { mime: 'image/jpeg', kind: 'image', decodable: true },
    sha256: 'ab'.repeat(32),
    location: { outcome: 'none', patches: [] },
    processed: {
      kind: 'image',
      mime: 'image/jpeg',
      width: 10,
      height: 10,
      durationMs: null,
      takenAt: null,
      thumbhash: null,
      metadata: {},
      notice: null,
      hasPreview: true,
      hasThumb: true,
    },
  };
}

describe('upload task state machine', () => {
  it('walks the happy path queued → reading → processing → uploading → finalizing → done', () => {
    let t = fresh();
    const seen: TaskState[] = [t.state];
    t = transition(t, { type: 'start' }, T0);
    seen.push(t.state);
    for (let i = 0; i < 4; i++) {
      t = transition(t, { type: 'advance' }, T0);
      seen.push(t.state);
    }
    expect(seen).toEqual(['queued', 'reading', 'processing', 'uploading', 'finalizing', 'done']);
  });

  it('refuses transitions the table does not allow, with a validation error', () => {
    expect(() => transition(fresh(), { type: 'advance' })).toThrow(AppError);
    expect(() => transition(fresh(), { type: 'resume' })).toThrow(/queued cannot resume/);
    const done = run(fresh(), { type: 'start' }, { type: 'advance' }, { type: 'advance' }, { type: 'advance' }, { type: 'advance' });
    expect(done.state).toBe('done');
    for (const type of ['start', 'pause', 'cancel', 'retry', 'fail', 'interrupt'] as const) {
      const event = type === 'fail' ? { type, error: interrupted } : { type };
      expect(() => transition(done, event as TaskEvent)).toThrow(AppError);
    }
    expect(() => transition(done, { type: 'cancel' })).toThrow(expect.objectContaining({ code: 'validation/invalid' }));
  });

  it('pauses from any working state and resumes into the queue', () => {
    for (const steps of [0, 1, 2, 3, 4]) {
      let t = fresh();
      if (steps > 0) t = transition(t, { type: 'start' }, T0);
      for (let i = 1; i < steps; i++) t = transition(t, { type: 'advance' }, T0);
      const paused = transition(t, { type: 'pause' }, T0);
      expect(paused.state).toBe('paused');
      expect(transition(paused, { type: 'resume' }, T0).state).toBe('queued');
      expect(() => transition(paused, { type: 'start' })).toThrow(AppError);
    }
  });

  it('keeps a failed task with its error; a retryable one goes back to the queue, a non-retryable one cannot', () => {
    const failed = run(fresh(), { type: 'start' }, { type: 'fail', error: interrupted });
    expect(failed.state).toBe('failed');
    expect(failed.error?.code).toBe('upload/interrupted');
    const retried = transition(failed, { type: 'retry' }, T0);
    expect(retried.state).toBe('queued');
    expect(retried.error).toBeNull();

    const refused = transition(fresh(), { type: 'fail', error: empty }, T0);
    expect(refused.state).toBe('failed');
    expect(canTransition(refused, 'retry')).toBe(false);
    expect(() => transition(refused, { type: 'retry' })).toThrow(/cannot retry/);
    expect(transition(refused, { type: 'cancel' }, T0).state).toBe('canceled');
  });

  it('an original that keeps its place can go up as its preview, only when it stopped for that and a preview exists', () => {
    const placeLeft = new AppError('upload/unsupported', 'Place left', { retryable: false, details: { reason: 'location' } }).toJSON();
    const stopped = run(processed(), { type: 'start' }, { type: 'fail', error: placeLeft });
    expect(canTransition(stopped, 'retry')).toBe(false);
    const chosen = transition(stopped, { type: 'previewOnly' }, T0);
    expect(chosen).toMatchObject({ state: 'queued', error: null, original: 'preview' });
    expect(processed().original).toBeUndefined();

    // Not for another refusal, nor without a preview to send.
    const otherwise = run(processed(), { type: 'start' }, { type: 'fail', error: empty });
    expect(() => transition(otherwise, { type: 'previewOnly' })).toThrow(/cannot previewOnly/);
    const noPreview = { ...processed(), processed: { ...processed().processed!, hasPreview: false } };
    expect(canTransition(run(noPreview, { type: 'start' }, { type: 'fail', error: placeLeft }), 'previewOnly')).toBe(false);
  });

  it('cancels from every unfinished state and never from done or canceled', () => {
    const states = Object.keys(TRANSITIONS) as TaskState[];
    const cancellable = states.filter((s) => TRANSITIONS[s].cancel !== undefined).sort();
    expect(cancellable).toEqual(['failed', 'finalizing', 'paused', 'processing', 'queued', 'reading', 'uploading']);
  });

  it('a canceled task whose item is found in its album ends done; nothing else leaves canceled', () => {
    const canceled = run(fresh(), { type: 'start' }, { type: 'cancel' });
    expect(transition(canceled, { type: 'arrived' }, T0).state).toBe('done');
    expect(Object.keys(TRANSITIONS.canceled)).toEqual(['arrived']);
    const states = Object.keys(TRANSITIONS) as TaskState[];
    expect(states.filter((s) => TRANSITIONS[s].arrived !== undefined)).toEqual(['canceled']);
  });

  it('an interrupted run goes back to the queue, not to failed', () => {
    const t = run(fresh(), { type: 'start' }, { type: 'advance' }, { type: 'interrupt' });
    expect(t.state).toBe('queued');
    expect(t.error).toBeNull();
  });

  it('resumes at the first stage whose result is not stored, so no stage is done twice', () => {
    expect(resumeStage(fresh())).toBe('reading');
    expect(transition(fresh(), { type: 'start' }, T0).state).toBe('reading');

    const read = { ...fresh(), sniffed: processed().sniffed, sha256: processed().sha256, location: processed().location };
    expect(transition(read, { type: 'start' }, T0).state).toBe('processing');
    // A task read before location was removed (no decision stored) is read again: its hash was of the file as is.
    const { location: _, ...readBefore } = read;
    expect(resumeStage(readBefore)).toBe('reading');

    const p = processed();
    expect(transition(p, { type: 'start' }, T0).state).toBe('uploading');

    const objects = [
      { role: 'original' as const, key: 'k/original', bytes: 1000, contentType: 'image/jpeg', checkpoint: null, sentBytes: 1000, done: true },
      { role: 'thumb' as const, key: 'k/thumb.webp', bytes: 10, contentType: 'image/webp', checkpoint: null, sentBytes: 0, done: false },
    ];
    const halfSent = { ...p, reserved: true, objects };
    expect(transition(halfSent, { type: 'start' }, T0).state).toBe('uploading');

    const allSent = { ...halfSent, objects: objects.map((o) => ({ ...o, done: true })) };
    expect(transition(allSent, { type: 'start' }, T0).state).toBe('finalizing');
  });

  it('a state change stamps updatedAt and keeps the facts already learnt', () => {
    const p = processed();
    const t = transition(p, { type: 'start' }, '2026-02-02T00:00:00.000Z');
    expect(t.updatedAt).toBe('2026-02-02T00:00:00.000Z');
    expect(t.sha256).toBe(p.sha256);
    expect(t.processed).toEqual(p.processed);
    expect(p.state).toBe('queued');
  });
});
