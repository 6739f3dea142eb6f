import { abortError, throwIfAborted } from '../lib/app-error';
import { encodeSurface, resizeFrom } from './canvas-surface';
import type { ImageLimits } from './image-pipeline';
import { makeThumbhash } from './make-thumbhash';
import type { ProcessedMedia, SniffedType } from './media-types';

/** How long a video may take to show its first frames before it is kept without a poster. */
export const VIDEO_TIMEOUT_MS = 15_000;
/** How long to wait for a seeked frame to be presented before drawing what the element has. */
const FRAME_WAIT_MS = 1_000;

/**
 * Duration, size and a poster frame of a video, using the browser's own player (so it runs on the main
 * thread: workers have no video element). The poster is the frame at 1 s, or at a tenth of the duration for a
 * shorter clip. A video the browser cannot play, or that does not answer within the timeout, is still a video:
 * it comes back with whatever was learnt and no poster, never an error.
 */
export async function processVideo(
  blob: Blob,
  sniffed: SniffedType,
  opts: { signal?: AbortSignal; limits: Pick<ImageLimits, 'previewLongEdge' | 'thumbLongEdge' | 'previewQuality' | 'thumbQuality'>; timeoutMs?: number },
): Promise<ProcessedMedia> {
  const { signal, limits } = opts;
  throwIfAborted(signal);
  const result: ProcessedMedia = {
    kind: 'video',
    mime: sniffed.mime,
    width: null,
    height: null,
    durationMs: null,
    takenAt: null,
    thumb: null,
    preview: null,
    thumbhash: null,
    metadata: {},
    notice: null,
  };

  const url = URL.createObjectURL(blob);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  const deadline = AbortSignal.timeout(opts.timeoutMs ?? VIDEO_TIMEOUT_MS);
  const until = (events: string[]) => waitFor(video, events, signal, deadline);
  try {
    video.src = url;
    if (!(await until(['loadedmetadata']))) return result;
    if (video.videoWidth && video.videoHeight) {
      result.width = video.videoWidth;
      result.height = video.videoHeight;
    }

    let duration = video.duration;
    if (!Number.isFinite(duration)) {
      // Files written by MediaRecorder carry no duration: seeking far past the end makes the player find it.
      video.currentTime = Number.MAX_SAFE_INTEGER;
      while (!Number.isFinite(video.duration)) {
        if (!(await until(['durationchange', 'seeked', 'timeupdate']))) break;
      }
      duration = video.duration;
    }
    if (Number.isFinite(duration) && duration > 0) result.durationMs = Math.round(duration * 1000);
    if (!result.width || !result.height) return result;

    const at = Number.isFinite(duration) && duration > 0 ? Math.min(1, duration * 0.1) : 0;
    // 'seeked' can come before the frame reaches the element's picture (a black poster, about one time in
    // thirty in headless Chromium): also wait for the frame to be presented, where the browser can say so.
    const presented = framePresented(video);
    video.currentTime = at;
    // A 'seeked' left over from the duration probe may arrive first: wait until no seek is in progress.
    while (video.seeking) {
      if (!(await until(['seeked']))) return result;
    }
    if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA && !(await until(['loadeddata', 'canplay']))) return result;
    await presented;
    throwIfAborted(signal);

    const poster = resizeFrom(video, result.width, result.height, limits.previewLongEdge);
    const thumb = resizeFrom(poster.canvas, poster.width, poster.height, limits.thumbLongEdge);
    result.thumbhash = makeThumbhash(thumb.canvas, thumb.width, thumb.height);
    [result.preview, result.thumb] = await Promise.all([
      encodeSurface(poster, limits.previewQuality),
      encodeSurface(thumb, limits.thumbQuality),
    ]);
    throwIfAborted(signal);
    return result;
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** Resolves when the next video frame is presented, or after a moment where that cannot be observed. */
function framePresented(video: HTMLVideoElement): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FRAME_WAIT_MS);
    if (typeof video.requestVideoFrameCallback === 'function') {
      video.requestVideoFrameCallback(() => {
        clearTimeout(timer);
        resolve();
      });
    }
  });
}

/**
 * Resolves true at the first of `events`, false on a media error or when `deadline` fires; rejects with an
 * AbortError when `signal` fires.
 */
function waitFor(video: HTMLVideoElement, events: string[], signal: AbortSignal | undefined, deadline: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    const listeners = new AbortController();
    const done = (fn: () => void) => () => {
      listeners.abort();
      fn();
    };
    if (signal?.aborted) return reject(abortError());
    if (deadline.aborted || video.error) return resolve(false);
    const opt = { signal: listeners.signal, once: true };
    for (const name of events) video.addEventListener(name, done(() => resolve(true)), opt);
    video.addEventListener('error', done(() => resolve(false)), opt);
    deadline.addEventListener('abort', done(() => resolve(false)), opt);
    signal?.addEventListener('abort', done(() => reject(abortError())), opt);
  });
}
