import { ChevronLeftIcon, ChevronRightIcon, CloseIcon, RefreshIcon, ZoomInIcon, ZoomOutIcon } from '@cartable/ui';
import { ModalSurface } from '@cartable/ui/overlays';
import {
  type ReactNode,
  type PointerEvent as ReactPointerEvent,
  type Ref,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

/** SPEC section 9: zoom from 0.5 to 5; buttons step ×1.5 / ÷1.5; the wheel ×1.1 / ×0.9. */
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 5;
export const ZOOM_STEP = 1.5;

export function clampZoom(value: number): number {
  return Math.round(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, value)) * 1000) / 1000;
}

export interface ViewerImage {
  url: string;
  alt: string;
}

export interface ZoomViewerProps {
  images: ViewerImage[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/**
 * Full-screen image viewer. Keys: ← → previous/next image, Escape closes, + and - zoom, 0 resets.
 * The wheel zooms, a drag moves the zoomed image, two fingers pinch.
 */
export function ZoomViewer({ images, index, onIndexChange, onClose }: ZoomViewerProps) {
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const stageRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ distance: number; scale: number } | null>(null);
  const count = images.length;
  const image = images[index];

  const zoom = useCallback((factor: number) => {
    setScale((s) => {
      const next = clampZoom(s * factor);
      if (next <= 1) setOffset({ x: 0, y: 0 });
      return next;
    });
  }, []);
  const reset = useCallback(() => {
    setScale(1);
    setOffset({ x: 0, y: 0 });
  }, []);
  const go = useCallback(
    (delta: number) => {
      if (count < 2) return;
      onIndexChange((index + delta + count) % count);
    },
    [count, index, onIndexChange],
  );

  // A new image starts unzoomed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the image changes
  useEffect(() => reset(), [index, reset]);

  // Keyboard: images and zoom. Focus (trapped, then given back), Escape, the inert page and the
  // scroll lock are the modal primitive's (ModalSurface, libs/ui/overlays).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      switch (event.key) {
        case 'ArrowLeft':
          event.preventDefault();
          go(-1);
          break;
        case 'ArrowRight':
          event.preventDefault();
          go(1);
          break;
        case '+':
        case '=':
        case 'Add':
          event.preventDefault();
          zoom(ZOOM_STEP);
          break;
        case '-':
        case '_':
        case 'Subtract':
          event.preventDefault();
          zoom(1 / ZOOM_STEP);
          break;
        case '0':
          event.preventDefault();
          reset();
          break;
        default:
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [go, zoom, reset]);

  // The wheel needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      if (event.deltaY === 0) return;
      zoom(event.deltaY > 0 ? 0.9 : 1.1);
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, [zoom]);

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2) {
      const [a, b] = Array.from(pointers.current.values()) as [{ x: number; y: number }, { x: number; y: number }];
      pinch.current = { distance: Math.hypot(a.x - b.x, a.y - b.y), scale };
    }
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const previous = pointers.current.get(event.pointerId);
    if (!previous) return;
    const current = { x: event.clientX, y: event.clientY };
    pointers.current.set(event.pointerId, current);
    if (pointers.current.size === 2 && pinch.current) {
      const [a, b] = Array.from(pointers.current.values()) as [{ x: number; y: number }, { x: number; y: number }];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch.current.distance > 0) setScale(clampZoom((pinch.current.scale * distance) / pinch.current.distance));
      return;
    }
    if (scale > 1) {
      setOffset((o) => ({ x: o.x + current.x - previous.x, y: o.y + current.y - previous.y }));
    }
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  };

  if (!image) return null;
  const percent = Math.round(scale * 100);

  return (
    <ModalSurface
      label="Visionneuse d'images"
      aria-describedby="zoom-viewer-help"
      onClose={onClose}
      initialFocusRef={closeRef}
      className="fixed inset-0 z-[70] flex flex-col bg-slate-950/95 text-white"
    >
      <p id="zoom-viewer-help" className="sr-only">
        Flèches gauche et droite : image précédente ou suivante. Plus et moins : zoom. Zéro : taille normale. Échap :
        fermer.
      </p>
      <div className="flex items-center gap-2 p-2 sm:p-3">
        <p className="mr-auto px-2 text-sm font-medium" aria-live="polite">
          {count > 1 ? `Image ${index + 1} sur ${count}` : 'Image'} · {percent} %
        </p>
        <ViewerButton label="Zoom arrière" onClick={() => zoom(1 / ZOOM_STEP)} disabled={scale <= ZOOM_MIN}>
          <ZoomOutIcon size={20} />
        </ViewerButton>
        <ViewerButton label="Zoom avant" onClick={() => zoom(ZOOM_STEP)} disabled={scale >= ZOOM_MAX}>
          <ZoomInIcon size={20} />
        </ViewerButton>
        <ViewerButton
          label="Réinitialiser le zoom"
          onClick={reset}
          disabled={scale === 1 && offset.x === 0 && offset.y === 0}
        >
          <RefreshIcon size={20} />
        </ViewerButton>
        <ViewerButton label="Fermer la visionneuse" onClick={onClose} buttonRef={closeRef}>
          <CloseIcon size={22} />
        </ViewerButton>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: pointer gestures only; the buttons and keys do the same */}
      <div
        ref={stageRef}
        className="relative flex flex-1 touch-none items-center justify-center overflow-hidden select-none"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => (scale === 1 ? setScale(2) : reset())}
        style={{ cursor: scale > 1 ? 'grab' : 'zoom-in' }}
      >
        <img
          src={image.url}
          alt={image.alt}
          draggable={false}
          data-testid="zoom-image"
          data-scale={scale}
          className="max-h-full max-w-full object-contain transition-transform duration-100 ease-out"
          style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${scale})` }}
        />
      </div>
      {count > 1 ? (
        <div className="flex items-center justify-center gap-4 p-3">
          <ViewerButton label="Image précédente" onClick={() => go(-1)}>
            <ChevronLeftIcon size={24} />
          </ViewerButton>
          <ViewerButton label="Image suivante" onClick={() => go(1)}>
            <ChevronRightIcon size={24} />
          </ViewerButton>
        </div>
      ) : null}
    </ModalSurface>
  );
}

function ViewerButton({
  label,
  onClick,
  disabled,
  children,
  buttonRef,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
  buttonRef?: Ref<HTMLButtonElement> | undefined;
}) {
  return (
    <button
      ref={buttonRef}
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      className="flex h-11 w-11 items-center justify-center rounded-full bg-white/10 text-white transition-colors hover:bg-white/20 focus-visible:outline-white disabled:opacity-40"
    >
      {children}
    </button>
  );
}
