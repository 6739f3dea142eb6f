/** The track beside a long grid that jumps to any month: [Note: The date scrubber] in scrubber-model.ts. */

/** How long the month in view stays written beside the thumb after the grid stops moving. */
const SHOW_MONTH_MS = 1200;
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatMonth } from '../../lib/format';
import { anchorAt, type GridAnchor } from './grid-anchor';
import { monthIndexAt, monthIndexForKey, offsetAt, scrubMarks, trackAt, type MonthSpan } from './scrubber-model';

export const DateScrubber = memo(function DateScrubber({ spans, total, offset, onJump }: {
  spans: readonly MonthSpan[];
  /** The grid's whole height, px. */
  total: number;
  /** How far the grid is scrolled, px. */
  offset: number;
  /** Bring this place of a month to the top of the grid. */
  onJump: (to: GridAnchor) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [track, setTrack] = useState(0);
  /** Where the pointer points on the track (hovering or dragging), px from its top; null when it is elsewhere. */
  const [pointer, setPointer] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const frame = useRef(0);
  /** The grid moved a moment ago: the month in view is written beside the thumb. */
  const [moving, setMoving] = useState(false);
  const firstOffset = useRef(offset);
  useEffect(() => {
    if (offset === firstOffset.current) return;
    firstOffset.current = Number.NaN;
    setMoving(true);
    const t = setTimeout(() => setMoving(false), SHOW_MONTH_MS);
    return () => clearTimeout(t);
  }, [offset]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => entry && setTrack(entry.contentRect.height));
    ro.observe(el);
    setTrack(el.clientHeight);
    return () => {
      ro.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, []);

  // While dragging, the track keeps the months where they were when the drag began: months loading under a moving
  // pointer would otherwise slide the marks, and the month pointed at, along the track.
  const [held, setHeld] = useState<{ spans: readonly MonthSpan[]; total: number } | null>(null);
  const laid = held ?? { spans, total };
  const marks = useMemo(() => scrubMarks(laid.spans, laid.total, track), [laid.spans, laid.total, track]);
  const current = monthIndexAt(spans, offset);
  const currentMonth = spans[current]?.month;

  const yOf = (e: PointerEvent) => e.clientY - (ref.current?.getBoundingClientRect().top ?? 0);
  /** The place of the grid at `y` on the track, as laid out when the drag began. */
  const pointedAt = (y: number) => anchorAt(laid.spans, laid.total, offsetAt(y, track, laid.total, 0));
  // One jump per frame however fast the pointer moves: the grid renders each one.
  const jumpTo = (to: GridAnchor | null) => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => to && onJump(to));
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    // Not prevented: the press focuses the track as it would a native slider (without a focus ring), and the keys
    // go on from where the pointer put the grid. No text is selected while dragging (`user-select: none`).
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(true);
    setHeld({ spans, total });
    const y = yOf(e);
    setPointer(y);
    jumpTo(pointedAt(y));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const y = yOf(e);
    setPointer(y);
    if (dragging) jumpTo(pointedAt(y));
  };
  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    // Let go on a month that fits in about two screens: the grid lands at its heading, the month the bubble said,
    // rather than part way in with the next month's heading in view. A longer month keeps the place pointed at.
    const to = dragging && e.type === 'pointerup' ? pointedAt(yOf(e)) : null;
    if (to && to.height <= 2 * track) jumpTo({ ...to, within: 0 });
    setDragging(false);
    setHeld(null);
    // A mouse still over the track sets it again as it moves.
    setPointer(null);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const next = monthIndexForKey(spans, Math.max(0, current), e.key);
    if (next === null) return;
    e.preventDefault();
    const to = anchorAt(spans, total, spans[next]!.start);
    if (to) onJump(to);
  };

  const pointedMonth = pointer === null ? undefined : pointedAt(pointer)?.month;
  const thumb = trackAt(offset, track, total);

  return (
    <div
      ref={ref}
      // Awake while the grid moves, a pointer is on it or a drag goes on: on a phone it shows only then (styles.css).
      className={`scrubber${dragging ? ' scrubber--dragging' : ''}${moving || dragging || pointer !== null ? ' scrubber--awake' : ''}`}
      role="slider"
      tabIndex={0}
      aria-label="Jump to a date"
      aria-orientation="vertical"
      aria-valuemin={0}
      aria-valuemax={Math.max(0, spans.length - 1)}
      aria-valuenow={Math.max(0, current)}
      aria-valuetext={currentMonth ? formatMonth(currentMonth) : undefined}
      data-testid="date-scrubber"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onPointerLeave={() => !dragging && setPointer(null)}
      onKeyDown={onKeyDown}
    >
      {marks.dots.map((y) => (
        <span key={y} className="scrubber__dot" style={{ top: y }} aria-hidden="true" />
      ))}
      {marks.labels.map((l) => (
        <span key={l.text} className="scrubber__year" style={{ top: Math.max(l.y, 7) }} aria-hidden="true">
          {l.text}
        </span>
      ))}
      <span className="scrubber__thumb" style={{ top: thumb }} aria-hidden="true" />
      {pointer !== null && pointedMonth ? (
        <span className="scrubber__date" style={{ top: Math.min(Math.max(pointer, 0), track) }} data-testid="scrubber-date">
          {formatMonth(pointedMonth)}
        </span>
      ) : (
        moving &&
        currentMonth && (
          <span className="scrubber__date scrubber__date--here" style={{ top: thumb }} data-testid="scrubber-date">
            {formatMonth(currentMonth)}
          </span>
        )
      )}
    </div>
  );
});
