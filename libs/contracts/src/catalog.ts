import { z } from 'zod';

export const bookConditions = ['neuf', 'très bon', 'bon', 'acceptable', 'mauvais'] as const;
export type BookCondition = (typeof bookConditions)[number];
/** SPEC.md section 3. */
export const conditionLabels: Record<BookCondition, string> = {
  neuf: 'Neuf',
  'très bon': 'Très bon état',
  bon: 'Bon état',
  acceptable: 'État acceptable',
  mauvais: 'Mauvais état',
};

export const bookStatuses = ['disponible', 'réservé', 'vendu'] as const;
export type BookStatus = (typeof bookStatuses)[number];
/** SPEC.md section 4: any other value shows as Vendu. */
export const statusLabel = (status: string) =>
  status === 'disponible' ? 'Disponible' : status === 'réservé' ? 'Réservé' : 'Vendu';

export const MAX_BOOK_IMAGES = 3;
export const MAX_BOOK_PRICE = 10_000_000;
export const MAX_BOOK_CATEGORIES = 5;
export const BOOKS_PER_PAGE_MAX = 50;

/** A form field or a multipart field: "true", "1", "on" and true are yes. */
const flag = z.preprocess((v) => v === true || v === 'true' || v === '1' || v === 'on', z.boolean());
const optionalText = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(max, message).optional(),
  );

/** "1,2" or ["1","2"] or [1,2] → [1, 2]. */
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
  z.array(z.coerce.number().int().positive()),
);

const currentYear = new Date().getFullYear();

/** The listing form and the API's multipart fields (SPEC.md section 2 "Add/edit listing"). */
export const bookFieldsSchema = z.object({
  title: z
    .string({ error: 'Le titre est obligatoire' })
    .trim()
    .min(2, 'Le titre doit contenir au moins 2 caractères')
    .max(200, 'Le titre ne peut pas dépasser 200 caractères'),
  author: z
    .string({ error: "L'auteur est obligatoire" })
    .trim()
    .min(2, "L'auteur doit contenir au moins 2 caractères")
    .max(150, "L'auteur ne peut pas dépasser 150 caractères"),
  isbn: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .refine((v) => /^(\d{9}[\dXx]|\d{13})$/.test(v.replace(/[-\s]/g, '')), 'ISBN invalide (10 ou 13 chiffres)')
      .optional(),
  ),
  description: optionalText(2000, 'La description ne peut pas dépasser 2000 caractères'),
  publisher: optionalText(150, "L'éditeur ne peut pas dépasser 150 caractères"),
  publication_year: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: 'Année invalide' })
      .int('Année invalide')
      .min(1950, 'Année invalide')
      .max(currentYear + 1, 'Année invalide')
      .optional(),
  ),
  condition: z.enum(bookConditions, { error: "Choisissez l'état du manuel" }),
  price: z.coerce
    .number({ error: 'Le prix est obligatoire' })
    .int('Le prix doit être un nombre entier de FCFA')
    .min(0, 'Le prix ne peut pas être négatif')
    .max(MAX_BOOK_PRICE, 'Le prix est trop élevé'),
  city_id: z.coerce
    .number({ error: 'La ville est obligatoire' })
    .int('La ville est obligatoire')
    .positive('La ville est obligatoire'),
  is_negociable: flag.default(false),
  is_exchange_possible: flag.default(false),
  category_ids: idList
    .refine((ids) => ids.length >= 1, 'Choisissez au moins une catégorie')
    .refine((ids) => ids.length <= MAX_BOOK_CATEGORIES, `${MAX_BOOK_CATEGORIES} catégories au plus`),
});
export type BookFields = z.infer<typeof bookFieldsSchema>;

const queryFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const money = z.coerce
  .number({ error: 'Le prix doit être un nombre' })
  .int('Le prix doit être un nombre entier')
  .min(0, 'Le prix ne peut pas être négatif');

/** GET /books (SPEC.md section 2 "Catalogue" and section 7 "Books"). */
export const bookListQuerySchema = z
  .object({
    query: z.string().trim().max(200).optional(),
    category_ids: idList.optional(),
    category_id: z.coerce.number().int().positive().optional(),
    min_price: money.optional(),
    max_price: money.optional(),
    condition: z.enum(bookConditions, { error: 'État inconnu' }).optional(),
    is_negociable: queryFlag.optional(),
    is_negotiable: queryFlag.optional(),
    is_exchange_possible: queryFlag.optional(),
    city_id: z.coerce.number().int().positive().optional(),
    user_id: z.string().uuid().optional(),
    exclude_id: z.coerce.number().int().positive().optional(),
    status: z.enum(bookStatuses).optional(),
    sort_by: z.enum(['created_at', 'price', 'title', 'popularity', 'relevance']).optional(),
    sort_direction: z.enum(['asc', 'desc']).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    per_page: z.coerce
      .number()
      .int()
      .min(1)
      .max(BOOKS_PER_PAGE_MAX, `${BOOKS_PER_PAGE_MAX} par page au plus`)
      .optional(),
    limit: z.coerce.number().int().min(1).max(BOOKS_PER_PAGE_MAX).optional(),
  })
  .refine((q) => q.min_price === undefined || q.max_price === undefined || q.min_price <= q.max_price, {
    path: ['max_price'],
    message: 'Le prix maximum doit être supérieur au prix minimum',
  });
export type BookListQuery = z.infer<typeof bookListQuerySchema>;
