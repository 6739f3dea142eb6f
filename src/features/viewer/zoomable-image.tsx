import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';

interface View {
  scale: number;
  x: number;
  y: number;
}

const MAX = 8;
const IDENTITY: View = { scale: 1, x: 0, y: 0 };

/**
 * An image that zooms with the wheel (toward the cursor), a pinch, or a double-click, and pans when zoomed.
 * When not zoomed, a horizontal swipe calls onSwipe(-1 | 1). Reports zoom so the viewer can load the original.
 */
export function ZoomableImage({ src, alt, onSwipe, onZoomChange }: {
  src: string;
  alt: string;
  onSwipe: (dir: -1 | 1) => void;
  onZoomChange?: (scale: number) => void;
}) {
  const [view, setView] = useState<View>(IDENTITY);
  const ref = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ startX: number; startY: number; startView: View; pinchDist: number | null; moved: boolean } | null>(null);

  useEffect(() => onZoomChange?.(view.scale), [view.scale, onZoomChange]);

  const zoomAt = (clientX: number, clientY: number, nextScale: number, from: View): View => {
    const el = ref.current;
    const s = Math.min(MAX, Math.max(1, nextScale));
    if (!el || s === 1) return IDENTITY;
    const r = el.getBoundingClientRect();
    const cx = clientX - r.left - r.width / 2;
    const cy = clientY - r.top - r.height / 2;
    // Keep the point under the cursor where it is.
    const k = s / from.scale;
    return { scale: s, x: cx - (cx - from.x) * k, y: cy - (cy - from.y) * k };
  };

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // A non-passive listener, so the page does not scroll while zooming.
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      setView((v) => zoomAt(e.clientX, e.clientY, v.scale * Math.exp(-e.deltaY * 0.0025), v));
    };
    el.addEventListener('wheel', wheel, { passive: false });
    return () => el.removeEventListener('wheel', wheel);
  }, []);

  const down = (e: ReactPointerEvent) => {
    (e.target as Element).setPointerCapture?.(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const pts = [...pointers.current.values()];
    const pinchDist = pts.length === 2 && pts[0] && pts[1] ? Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) : null;
    gesture.current = { startX: e.clientX, startY: e.clientY, startView: view, pinchDist, moved: false };
  };

  const move = (e: ReactPointerEvent) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    if (!g) return;
    const pts = [...pointers.current.values()];
    if (pts.length === 2 && pts[0] && pts[1] && g.pinchDist) {
      const d = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
      const mx = (pts[0].x + pts[1].x) / 2;
      const my = (pts[0].y + pts[1].y) / 2;
      g.moved = true;
      setView(zoomAt(mx, my, g.startView.scale * (d / g.pinchDist), g.startView));
      return;
    }
    const dx = e.clientX - g.startX;
    const dy = e.clientY - g.startY;
    if (Math.abs(dx) + Math.abs(dy) > 6) g.moved = true;
    if (g.startView.scale > 1) setView({ ...g.startView, x: g.startView.x + dx, y: g.startView.y + dy });
  };

  const up = (e: ReactPointerEvent) => {
    const g = gesture.current;
    pointers.current.delete(e.pointerId);
    if (pointers.current.size > 0) return;
    gesture.current = null;
    if (!g || g.pinchDist || view.scale > 1) return;
    const dx = e.clientX - g.startX;
    const dy = e.clientY - g.startY;
    if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(dy) * 1.5) onSwipe(dx < 0 ? 1 : -1);
  };

  return (
    <div
      ref={ref}
      className="zoomable"
      style={{ width: '100%', height: '100%', display: 'grid', placeItems: 'center', cursor: view.scale > 1 ? 'grab' : 'zoom-in', touchAction: 'none' }}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onDoubleClick={(e) => setView((v) => (v.scale > 1 ? IDENTITY : zoomAt(e.clientX, e.clientY, 2.5, v)))}
      data-zoom={view.scale.toFixed(2)}
    >
      <img
        src={src}
        alt={alt}
        draggable={false}
        style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`, transformOrigin: 'center', transition: gesture.current ? 'none' : 'transform 0.12s ease-out' }}
      />
    </div>
  );
}
