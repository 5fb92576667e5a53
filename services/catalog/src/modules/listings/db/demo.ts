import { type BookCondition, demoMembers } from '@cartable/contracts';
import { type Db, type Storage, UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import sharp from 'sharp';
import { placeDemoMember } from '../../members/index.ts';
import { categoryIdsByName, cityIdByName } from '../../taxonomy/index.ts';
import { processBookImage, storePhotos } from '../domain/photos.ts';
import { listingCreated } from '../events.ts';
import { countListings, insertListing, insertPhotos } from './queries.ts';

const publishers = ['IPN', 'EDICEF', 'Hachette Éducation', 'Nathan', 'Hatier', 'Bordas', 'Les Classiques Africains'];
const conditions: BookCondition[] = ['neuf', 'très bon', 'bon', 'bon', 'acceptable', 'mauvais'];
const subjectColours: Record<string, string> = {
  Mathématiques: '#009E60',
  Français: '#3A75C4',
  Anglais: '#B5462F',
  'Physique-Chimie': '#6B4FA0',
  'Sciences de la vie et de la Terre': '#2E7D32',
  'Histoire-Géographie': '#A0612B',
  Philosophie: '#37474F',
  Lecture: '#D48A00',
  Espagnol: '#C2185B',
  'Sciences économiques et sociales': '#00796B',
};

/** [subject, level, title]: the demo shelf, spread over cycles, levels and subjects. */
const shelf: Array<[string, string, string]> = [
  ['Lecture', 'CP1', 'Mon premier livre de lecture'],
  ['Lecture', 'CE1', 'Lire et comprendre CE1'],
  ['Mathématiques', 'CP2', 'Calcul CP2 – Je compte au Gabon'],
  ['Mathématiques', 'CE2', 'Mathématiques CE2'],
  ['Mathématiques', 'CM1', 'Le Nouveau Calcul CM1'],
  ['Mathématiques', 'CM2', 'Mathématiques CM2 – Réussir le CEP'],
  ['Français', 'CM1', 'Français CM1 – Grammaire et conjugaison'],
  ['Français', 'CM2', 'Français CM2 – Préparer l’entrée en 6e'],
  ['Histoire-Géographie', 'CM2', 'Histoire et Géographie du Gabon CM2'],
  ['Mathématiques', '6e', 'Mathématiques 6e – Collection Excellence'],
  ['Français', '6e', 'Français 6e – Le Livre Unique'],
  ['Anglais', '6e', 'Go for English 6e'],
  ['Sciences de la vie et de la Terre', '5e', 'SVT 5e'],
  ['Mathématiques', '5e', 'Mathématiques 5e – CIAM'],
  ['Physique-Chimie', '4e', 'Physique-Chimie 4e'],
  ['Anglais', '4e', 'Go for English 4e'],
  ['Espagnol', '4e', '¡Español! 4e'],
  ['Mathématiques', '3e', 'Mathématiques 3e – Préparer le BEPC'],
  ['Français', '3e', 'Français 3e – Textes et expression'],
  ['Histoire-Géographie', '3e', 'Histoire-Géographie 3e'],
  ['Physique-Chimie', '3e', 'Physique-Chimie 3e – BEPC'],
  ['Mathématiques', '2nde', 'Mathématiques 2nde – CIAM'],
  ['Français', '2nde', 'Français 2nde – Méthodes'],
  ['Physique-Chimie', '2nde', 'Physique-Chimie 2nde'],
  ['Anglais', '2nde', 'English in Africa 2nde'],
  ['Mathématiques', '1ère D', 'Mathématiques 1ère D'],
  ['Sciences de la vie et de la Terre', '1ère D', 'SVT 1ère D'],
  ['Mathématiques', '1ère C', 'Mathématiques 1ère C – Analyse et géométrie'],
  ['Sciences économiques et sociales', '1ère B', 'Économie 1ère B'],
  ['Français', '1ère A1', 'Littérature africaine 1ère A'],
  ['Mathématiques', 'Terminale D', 'Mathématiques Terminale D – Réussir le Bac'],
  ['Physique-Chimie', 'Terminale D', 'Physique-Chimie Terminale D'],
  ['Sciences de la vie et de la Terre', 'Terminale D', 'SVT Terminale D – Annales'],
  ['Mathématiques', 'Terminale C', 'Mathématiques Terminale C'],
  ['Physique-Chimie', 'Terminale C', 'Physique Terminale C – Exercices corrigés'],
  ['Philosophie', 'Terminale A1', 'Philosophie Terminale – Les grandes notions'],
  ['Philosophie', 'Terminale D', 'Philosophie Terminale D'],
  ['Histoire-Géographie', 'Terminale B', 'Histoire-Géographie Terminale'],
  ['Sciences économiques et sociales', 'Terminale B', 'Économie Terminale B'],
  ['Anglais', 'Terminale A2', 'English for the Baccalauréat'],
];

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Splits a title into lines of at most `width` characters for the cover. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (`${line} ${word}`.trim().length > width && line) {
      lines.push(line);
      line = word;
    } else line = `${line} ${word}`.trim();
  }
  return [...lines, line].slice(0, 5);
}

/** A plain generated cover: subject colour, title, level and publisher. */
async function cover(title: string, level: string, publisher: string, colour: string) {
  const lines = wrap(title, 16)
    .map(
      (l, i) =>
        `<text x="48" y="${230 + i * 62}" font-family="DejaVu Sans, sans-serif" font-size="50" font-weight="700" fill="#fff">${escapeXml(l)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="840">
    <rect width="600" height="840" fill="${colour}"/>
    <rect width="600" height="26" y="0" fill="#FCD116"/>
    <rect x="48" y="96" width="150" height="52" rx="26" fill="rgba(255,255,255,0.2)"/>
    <text x="123" y="132" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="28" font-weight="700" fill="#fff">${escapeXml(level)}</text>
    ${lines}
    <text x="48" y="780" font-family="DejaVu Sans, sans-serif" font-size="28" fill="rgba(255,255,255,0.85)">${escapeXml(publisher)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Small deterministic generator: the same demo catalogue at every first start. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/**
 * A demo catalogue (SEED_DEMO=1, set by npm start): about forty books of the demo members, over
 * the school categories and Gabon's towns, with generated covers. Only on an empty catalogue.
 */
export async function seedDemoCatalogue(db: Db, storage: Storage, log: Pick<Logger, 'warn'>) {
  if ((await countListings(db)) > 0) return 0;
  const rand = random(2026);
  const catIds = await categoryIdsByName(db);
  const catId = (name: string) => catIds.get(name);
  const towns = new Map<string, number | null>();
  for (const city of new Set(demoMembers.map((m) => m.city))) towns.set(city, await cityIdByName(db, city));
  const townId = (name: string) => towns.get(name) ?? null;
  // Its events reach the outbox like any listing's; nothing else of this process listens yet.
  const uow = new UnitOfWork({ db, log });

  // The sellers may not have reached the projection yet; their public face is known here.
  for (const m of demoMembers) await placeDemoMember(db, m, townId(m.city));

  let created = 0;
  for (const [index, [subject, level, title]] of shelf.entries()) {
    const seller = demoMembers[index % demoMembers.length]!;
    const publisher = publishers[Math.floor(rand() * publishers.length)]!;
    const condition = conditions[Math.floor(rand() * conditions.length)]!;
    const price = index % 11 === 5 ? 0 : Math.round((1500 + rand() * 13_500) / 500) * 500;
    const image = await processBookImage(await cover(title, level, publisher, subjectColours[subject] ?? '#009E60'));
    const stored = await storePhotos(storage, new Map([[1, image]]));
    const categoryIds = [catId(level), catId(subject)].filter((id): id is number => id !== undefined);
    await uow.run(async (t) => {
      const bookId = await insertListing(t.db, seller.id, {
        title,
        author: publisher === 'IPN' ? 'Institut Pédagogique National' : `Collectif ${publisher}`,
        publisher,
        publicationYear: 2015 + Math.floor(rand() * 10),
        description: `${title}, édition ${publisher}. ${condition === 'neuf' ? 'Jamais servi.' : 'A servi une année, quelques annotations au crayon.'} Remise en main propre à ${seller.city}.`,
        condition,
        // Said by index rather than drawn, so the other draws (and the demo's figures) stay as they were.
        conditionFlags: [
          ...(condition === 'neuf' ? [] : (['annotated'] as const)),
          ...(index % 9 === 4 ? (['stamped'] as const) : []),
          ...(condition === 'mauvais' ? (['cover_damaged'] as const) : []),
        ],
        price,
        status: index % 13 === 7 ? 'réservé' : 'disponible',
        cityId: townId(seller.city),
        isNegotiable: rand() > 0.4,
        isExchangePossible: rand() > 0.6,
        views: Math.floor(rand() * 120),
        categoryIds,
        createdAt: new Date(Date.now() - index * 5 * 3600_000),
      });
      await insertPhotos(t.db, [{ bookId, slot: 1, ...stored.get(1)! }]);
      // Other services learn of demo books as of any other (messaging needs them).
      await listingCreated(t, storage, bookId);
    });
    created++;
  }
  return created;
}
