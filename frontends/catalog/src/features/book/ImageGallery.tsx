// The subpath, not the package: the contracts' index is a shared module that brings zod along.
import { BOOK_PHOTO_SIZES, bookPhotoSrcSet } from '@cartable/contracts/photos';
import { BookIcon, cn, ExpandIcon, useDataSaver } from '@cartable/ui';
import { lazy, Suspense, useState } from 'react';
import type { BookPhoto } from '../../shared/books';

const ZoomViewer = lazy(() => import('./ZoomViewer').then((m) => ({ default: m.ZoomViewer })));

/** The book's photos (up to 3): a large one, thumbnails to switch, a zoom viewer on demand. */
export function ImageGallery({ images, title }: { images: BookPhoto[]; title: string }) {
  const [current, setCurrent] = useState(0);
  const [viewer, setViewer] = useState(false);
  // Data saver: the 400 px thumbnail only; the large photo when the viewer is opened.
  const { enabled: saving } = useDataSaver();
  const image = images[current] ?? images[0];

  if (!image) {
    return (
      <div
        className="flex aspect-[4/5] w-full flex-col items-center justify-center gap-2 rounded-2xl border border-slate-200 bg-linear-to-br from-primary-50 to-ocean-50 text-primary-400"
        role="img"
        aria-label={`${title} : pas de photo`}
      >
        <BookIcon size={56} />
        <span className="text-sm text-slate-500">Pas de photo</span>
      </div>
    );
  }

  const alt = (index: number) => `${title}, photo ${index + 1} sur ${images.length}`;

  return (
    <div>
      <div className="relative overflow-hidden rounded-2xl border border-slate-200 bg-white">
        <button
          type="button"
          onClick={() => setViewer(true)}
          className="block w-full cursor-zoom-in"
          aria-label={`Agrandir la photo ${current + 1} (visionneuse avec zoom)`}
        >
          <img
            src={saving ? image.thumbnail_url : image.url}
            // The same srcset and sizes as the gateway's preload of the first photo.
            srcSet={saving ? undefined : bookPhotoSrcSet(image.url, image.thumbnail_url)}
            sizes={saving ? undefined : BOOK_PHOTO_SIZES}
            alt={alt(current)}
            width={800}
            height={1000}
            decoding="async"
            fetchPriority="high"
            className="aspect-[4/5] max-h-[60vh] w-full bg-slate-100 object-contain sm:max-h-none"
          />
        </button>
        <span
          aria-hidden="true"
          className="pointer-events-none absolute right-3 bottom-3 flex h-10 w-10 items-center justify-center rounded-full bg-white/90 text-slate-800 shadow"
        >
          <ExpandIcon size={18} />
        </span>
      </div>
      {images.length > 1 ? (
        <ul className="mt-3 flex gap-2" aria-label="Photos du manuel">
          {images.map((entry, index) => (
            <li key={entry.slot}>
              <button
                type="button"
                onClick={() => setCurrent(index)}
                aria-current={index === current ? 'true' : undefined}
                aria-label={`Afficher la photo ${index + 1}`}
                className={cn(
                  'block h-20 w-16 overflow-hidden rounded-lg border-2 bg-slate-100 sm:h-24 sm:w-20',
                  index === current ? 'border-primary-600' : 'border-transparent opacity-80 hover:opacity-100',
                )}
              >
                <img
                  src={entry.thumbnail_url ?? entry.url}
                  alt=""
                  loading="lazy"
                  decoding="async"
                  width={80}
                  height={96}
                  className="h-full w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {viewer ? (
        <Suspense fallback={null}>
          <ZoomViewer
            images={images.map((entry, index) => ({ url: entry.url, alt: alt(index) }))}
            index={current}
            onIndexChange={setCurrent}
            onClose={() => setViewer(false)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
