import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { processBookImage, THUMBNAIL_MAX_BYTES, THUMBNAIL_WIDTH } from '../src/modules/listings/domain/photos.ts';

/**
 * A thumbnail never weighs more than its budget, whatever the photo: a phone's photo of a cover
 * keeps its width and loses quality first; pure noise, the worst a client can send, is made smaller.
 */

/** A 12-megapixel phone photo of a cover on a table: light falling across, and the sensor's grain. */
async function phonePhoto(grain: number) {
  const [w, h] = [3000, 4000];
  const cover = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#d8d2c4"/><stop offset="1" stop-color="#7a746a"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      <rect x="450" y="400" width="2100" height="3200" fill="#1f6fb2" transform="rotate(4 1500 2000)"/>
      <text x="600" y="1200" font-size="250" fill="white" font-family="sans-serif">Mathématiques 6e</text>
      <circle cx="1500" cy="2500" r="540" fill="#e94e1b"/>
    </svg>`,
  );
  const noise = await sharp({
    create: {
      width: w,
      height: h,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: grain },
    },
  })
    .png()
    .toBuffer();
  return sharp(cover)
    .composite([{ input: noise, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

const sizeOf = async (image: Buffer) => {
  const { width, format } = await sharp(image).metadata();
  return { width, format, bytes: image.length };
};

describe('a thumbnail within its byte budget', () => {
  it('keeps a clean photo as it was: 400 px at quality 70', async () => {
    const photo = await phonePhoto(5);
    const { thumbnail } = await processBookImage(photo);
    const reference = await sharp(photo)
      .resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_WIDTH * 1.4, fit: 'inside' })
      .webp({ quality: 70 })
      .toBuffer();
    expect(await sizeOf(thumbnail)).toEqual({ width: THUMBNAIL_WIDTH, format: 'webp', bytes: reference.length });
  }, 60_000);

  it('lowers the quality of a grainy photo over the budget, and keeps its width', async () => {
    const photo = await phonePhoto(120);
    const atSeventy = await sharp(photo)
      .resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_WIDTH * 1.4, fit: 'inside' })
      .webp({ quality: 70 })
      .toBuffer();
    expect(atSeventy.length).toBeGreaterThan(THUMBNAIL_MAX_BYTES);
    const { thumbnail } = await processBookImage(photo);
    expect(thumbnail.length).toBeLessThanOrEqual(THUMBNAIL_MAX_BYTES);
    expect((await sizeOf(thumbnail)).width).toBe(THUMBNAIL_WIDTH);
  }, 60_000);

  it('makes pure noise smaller until it fits', async () => {
    const noise = await sharp({
      create: {
        width: 400,
        height: 560,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 100 },
      },
    })
      .png()
      .toBuffer();
    const { thumbnail, display } = await processBookImage(noise);
    expect(thumbnail.length).toBeLessThanOrEqual(THUMBNAIL_MAX_BYTES);
    expect((await sizeOf(thumbnail)).width).toBeLessThan(THUMBNAIL_WIDTH);
    // The large photo is not the thumbnail's business.
    expect((await sizeOf(display)).width).toBe(400);
  }, 60_000);
});
