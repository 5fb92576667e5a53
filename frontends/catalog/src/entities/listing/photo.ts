/** Photos a listing accepts (POST /books: JPEG, PNG, WebP; 5 MB each). No contracts here: the bulk form loads this alone. */
export const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Phone photos are often 3 to 8 MB: anything above 1.5 MB or 1600 px is redrawn as a 1600 px JPEG
 * before upload (much less mobile data). On any failure the original file is sent.
 */
export async function shrinkPhoto(file: File): Promise<File> {
  const MAX_SIDE = 1600;
  if (file.size <= 1.5 * 1024 * 1024 || typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const ratio = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * ratio);
    canvas.height = Math.round(bitmap.height * ratio);
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], `${file.name.replace(/\.\w+$/, '')}.jpg`, { type: 'image/jpeg' });
  } catch {
    return file;
  }
}
