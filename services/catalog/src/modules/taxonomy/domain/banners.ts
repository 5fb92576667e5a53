import { randomUUID } from 'node:crypto';
import { type Banner, type BannerFields, bannerLinkKind } from '@cartable/contracts';
import { type Db, notFound, type Storage } from '@cartable/service-kit';
import { convertImage, photoRules } from '@cartable/service-kit/images';
import * as queries from '../db/queries.ts';

const BANNER_WIDTH = 1600;
const NOT_FOUND = 'Bannière introuvable.';

/** A banner's image, upright, at most 1600 px wide, in WebP; ImageRejected with its French reason otherwise. */
export function processBannerImage(input: Buffer) {
  return convertImage(input, photoRules, (image) =>
    image.rotate().resize({ width: BANNER_WIDTH, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer(),
  );
}

/** Carousel banners (SPEC.md section 2 « Home »). */
export function bannerService(db: Db, storage: Storage) {
  const dto = (b: queries.BannerRow): Banner => ({
    id: b.id,
    title: b.title,
    subtitle: b.subtitle,
    image_url: b.imageKey ? storage.url(b.imageKey) : null,
    button_text: b.buttonText,
    // A link stored before links were checked is shown only if it is one (never javascript:).
    button_link: b.buttonLink && bannerLinkKind(b.buttonLink) ? b.buttonLink : null,
    color: b.color,
    order: b.order,
    is_active: b.isActive,
  });

  async function storeImage(image: Buffer | null) {
    if (!image) return null;
    const key = `banners/${randomUUID()}.webp`;
    await storage.put(key, image, 'image/webp');
    return key;
  }

  return {
    list: async (onlyActive: boolean) => (await queries.listBanners(db, onlyActive)).map(dto),
    /** A banner; an inactive one only `withInactive` (a banners.manage holder), else 404. */
    async get(id: number, options: { withInactive: boolean }) {
      const row = await queries.bannerById(db, id);
      if (!row || (!row.isActive && !options.withInactive)) throw notFound(NOT_FOUND);
      return dto(row);
    },
    async assertExists(id: number) {
      if (!(await queries.bannerById(db, id))) throw notFound(NOT_FOUND);
    },
    async create(fields: BannerFields, image: Buffer | null) {
      return dto(await queries.insertBanner(db, fields, await storeImage(image)));
    },
    async update(id: number, fields: BannerFields, image: Buffer | null) {
      const existing = await queries.bannerById(db, id);
      if (!existing) throw notFound(NOT_FOUND);
      const imageKey = (await storeImage(image)) ?? existing.imageKey;
      const row = await queries.updateBanner(db, id, fields, imageKey);
      if (!row) throw notFound(NOT_FOUND);
      if (image && existing.imageKey) await storage.delete(existing.imageKey).catch(() => {});
      return dto(row);
    },
    async remove(id: number) {
      const row = await queries.deleteBanner(db, id);
      if (!row) throw notFound(NOT_FOUND);
      if (row.imageKey) await storage.delete(row.imageKey).catch(() => {});
    },
    order: (order: ReadonlyArray<{ id: number; order: number }>) => queries.setBannerOrder(db, order),
  };
}
export type BannerService = ReturnType<typeof bannerService>;
