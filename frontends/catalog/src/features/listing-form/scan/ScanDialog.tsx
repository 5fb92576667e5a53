import { Alert, Button, CameraIcon, Spinner } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { type ChangeEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { type BarcodeReader, isbnOfBarcodes, loadBarcodeReader, type ScanSource } from './barcode-reader';
import { cameraProblem, scanMessages } from './messages';

/** How often a live frame is read: often enough to feel instant, rarely enough for a cheap phone. */
const FRAME_INTERVAL_MS = 250;

/**
 * The reader of a dialog's opening, loaded once for the live video and the photos: the bundler
 * keeps its module, and zxing-wasm its compiled WebAssembly, from one opening to the next.
 */
function readerIn(ref: RefObject<Promise<BarcodeReader> | null>) {
  ref.current ??= loadBarcodeReader().catch((error: unknown) => {
    ref.current = null;
    throw error;
  });
  return ref.current;
}

/**
 * « Scanner le code-barres »: the phone's rear camera in a live preview, each frame read until a
 * book's ISBN is seen; or a photo of the barcode, read by the same reader. The camera stops when
 * the dialog closes (Escape, ×, a read ISBN). Refused or absent, the dialog says so in French and
 * offers the photo; the form behind stays usable.
 */
export default function ScanDialog({
  open,
  onClose,
  onIsbn,
}: {
  open: boolean;
  onClose: () => void;
  onIsbn: (isbn13: string) => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const photoRef = useRef<HTMLInputElement>(null);
  const [live, setLive] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  const [readingPhoto, setReadingPhoto] = useState(false);
  const readerRef = useRef<Promise<BarcodeReader> | null>(null);
  const onIsbnRef = useRef(onIsbn);
  onIsbnRef.current = onIsbn;

  /** A read that found a book ends the scan; another product's barcode is said, and the scan goes on. */
  const foundRef = useRef((texts: string[]) => {
    const read = isbnOfBarcodes(texts);
    if (read && 'isbn13' in read) {
      onIsbnRef.current(read.isbn13);
      return true;
    }
    if (read) setHint(scanMessages.notABook(read.notABook));
    return false;
  });
  const found = foundRef.current;

  useEffect(() => {
    if (!open) return;
    readerRef.current = null;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setProblem(null);
    setHint(null);
    setLive(false);

    async function readFrames(reader: BarcodeReader, video: ScanSource) {
      if (stopped) return;
      try {
        if (foundRef.current(await reader.read(video))) return;
      } catch {
        // A frame the reader could not take (the video not ready yet): the next one will do.
      }
      if (!stopped) timer = setTimeout(() => void readFrames(reader, video), FRAME_INTERVAL_MS);
    }

    async function start() {
      if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) {
        setProblem(scanMessages.absent);
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment', width: { ideal: 1280 } },
          audio: false,
        });
      } catch (error) {
        if (!stopped) setProblem(cameraProblem(error));
        return;
      }
      const video = videoRef.current;
      if (stopped || !video) return;
      video.srcObject = stream;
      await video.play().catch(() => {});
      setLive(true);
      try {
        const reader = await readerIn(readerRef);
        if (!stopped) void readFrames(reader, video);
      } catch {
        if (!stopped) setProblem(scanMessages.readerFailed);
      }
    }

    void start();
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
      if (videoRef.current) videoRef.current.srcObject = null;
    };
  }, [open]);

  const readPhoto = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReadingPhoto(true);
    setHint(null);
    try {
      const reader = await readerIn(readerRef);
      if (!found(await reader.read(file))) setHint((h) => h ?? scanMessages.photoUnreadable);
    } catch {
      setProblem(scanMessages.readerFailed);
    } finally {
      setReadingPhoto(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Scanner le code-barres"
      description={problem ? undefined : scanMessages.aim}
      footer={
        <Button variant="outline" onClick={onClose}>
          Fermer
        </Button>
      }
    >
      <div className="space-y-3">
        {problem ? <Alert tone="warning" title={problem} /> : null}
        {problem ? null : (
          <div className="relative overflow-hidden rounded-lg bg-slate-900" style={{ aspectRatio: '4 / 3' }}>
            <video
              ref={videoRef}
              className="h-full w-full object-cover"
              muted
              playsInline
              aria-label="Aperçu de la caméra"
            />
            <div className="pointer-events-none absolute inset-x-[12%] top-1/3 h-1/3 rounded-md border-2 border-white/80" />
            {live ? null : (
              <span className="absolute inset-0 flex items-center justify-center text-white">
                <Spinner label="Ouverture de la caméra…" />
              </span>
            )}
          </div>
        )}
        <p role="status" className="min-h-5 text-sm text-slate-700">
          {readingPhoto ? 'Lecture de la photo…' : (hint ?? '')}
        </p>
        <input
          ref={photoRef}
          type="file"
          accept="image/*"
          capture="environment"
          className="sr-only"
          tabIndex={-1}
          aria-label="Photo du code-barres"
          onChange={(event) => void readPhoto(event)}
        />
        <Button
          variant={problem ? 'primary' : 'outline'}
          fullWidth
          leftIcon={<CameraIcon size={18} />}
          loading={readingPhoto}
          onClick={() => photoRef.current?.click()}
        >
          Prendre une photo du code-barres
        </Button>
      </div>
    </Dialog>
  );
}
