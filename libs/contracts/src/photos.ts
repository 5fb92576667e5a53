/**
 * How a book page shows its main photo, shared by the page (frontends/catalog ImageGallery) and
 * the gateway, which preloads that photo from the HTML (gateway/src/routes/link-previews.ts): a
 * preload is used only when its srcset and sizes are exactly the image's.
 */
export const BOOK_PHOTO_SIZES = '(min-width: 1024px) 40vw, (min-width: 640px) 60vw, 100vw';

/** The 400 px thumbnail for a small, low-density screen; the 1200 px photo otherwise. */
export function bookPhotoSrcSet(url: string, thumbnailUrl: string | null | undefined): string | undefined {
  return thumbnailUrl ? `${thumbnailUrl} 400w, ${url} 1200w` : undefined;
}
