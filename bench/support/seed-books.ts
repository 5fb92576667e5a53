import type pg from 'pg';
import { schoolSubjects as subjects } from '../../services/catalog/src/modules/taxonomy/index.ts';

/**
 * A realistic catalogue for the benchmarks (/work/shared/DOMAIN.md): titles built from the
 * subjects each level really teaches (the taxonomy module's school system), the collections
 * and publishers used in Gabon, Gabonese and French authors, ISBN-13 with a valid check digit,
 * descriptions in the words sellers use, second-hand prices in FCFA from a new price that depends
 * on the level and a discount that depends on the condition, towns weighted by population,
 * sellers (a few deactivated) listing several books each, and the categories set as the app does
 * (the level, then the subject). Deterministic: the same catalogue at every run.
 */

/** Small deterministic generator (mulberry32). */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = generator(241);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
function weighted<T>(entries: ReadonlyArray<readonly [T, number]>): () => T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  return () => {
    let r = rand() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1]![0];
  };
}

const primary = ['CP1', 'CP2', 'CE1', 'CE2', 'CM1', 'CM2'];
const college = ['6e', '5e', '4e', '3e'];
/** Cohorts shrink along the way: more primary books than Terminale ones. */
const levelWeight = (level: string) =>
  primary.includes(level) ? 10 : college.includes(level) ? 7 : level === '2nde' ? 5 : 1.6;
const exam = (level: string) =>
  ['CM2'].includes(level) ? 'CEP' : level === '3e' ? 'BEPC' : level.startsWith('Terminale') ? 'Bac' : null;

/** What a level's book costs new, in FCFA (primary about 7,000 in 2024; lycée books dearer). */
const newPrice = (level: string) =>
  primary.includes(level) ? 7000 : college.includes(level) ? 9500 : level === '2nde' ? 12000 : 14500;
const conditions = weighted([
  ['neuf', 8],
  ['très bon', 25],
  ['bon', 40],
  ['acceptable', 20],
  ['mauvais', 7],
] as const);
const discount: Record<string, number> = { neuf: 0.8, 'très bon': 0.62, bon: 0.48, acceptable: 0.33, mauvais: 0.18 };

/** Per subject: the series titles, `{l}` being the level. */
const titles: Record<string, string[]> = {
  Lecture: [
    'Lecture {l} – Super efficace',
    'Mon livre de lecture {l}',
    'Lire et comprendre {l}',
    'Excellent Lecture {l}',
    'Je lis au Gabon {l}',
  ],
  Français: [
    'Français {l} – Super efficace',
    'Excellent Français {l}',
    'Français {l} – Le Livre Unique',
    'Grammaire et conjugaison {l}',
    'Français {l} – Textes et expression',
    'Français {l} – Méthodes et techniques',
    'Littérature africaine {l}',
    'Orthographe et vocabulaire {l}',
  ],
  Mathématiques: [
    'Mathématiques {l} – Super efficace',
    'Excellent Mathématiques {l}',
    'CIAM Mathématiques {l}',
    'Le Nouveau Calcul {l}',
    'Mathématiques {l} – Collection Excellence',
    'Mathématiques {l} – Exercices corrigés',
    'Mathématiques {l} – Analyse et géométrie',
    'Calcul mental et problèmes {l}',
  ],
  "Sciences d'observation": [
    "Sciences d'observation {l} – Super efficace",
    'Excellent Sciences {l}',
    'Découvrir la nature au Gabon {l}',
  ],
  'Histoire-Géographie': [
    'Histoire et Géographie du Gabon {l}',
    'Histoire-Géographie {l}',
    "Histoire-Géographie {l} – L'Afrique et le monde",
    'Atlas du Gabon – Histoire-Géographie {l}',
  ],
  'Éducation civique et morale': [
    'Éducation civique et morale {l}',
    'Le jeune citoyen gabonais {l}',
    'Vivre ensemble – Éducation civique {l}',
  ],
  Anglais: ['Go for English {l}', 'English in Africa {l}', 'Hello Gabon! English {l}', 'On Track English {l}'],
  Espagnol: ['¡Español! {l}', 'Horizontes – Espagnol {l}', 'Adelante Espagnol {l}'],
  'Physique-Chimie': [
    'Physique-Chimie {l}',
    'IPAM Physique-Chimie {l}',
    'Physique-Chimie {l} – Exercices corrigés',
    'Chimie {l} – Cours et travaux pratiques',
    'Physique {l} – Mécanique et électricité',
  ],
  'Sciences de la vie et de la Terre': [
    'SVT {l}',
    'Sciences de la vie et de la Terre {l}',
    'SVT {l} – Annales corrigées',
    'Biologie et géologie {l}',
  ],
  Philosophie: [
    'Philosophie {l} – Les grandes notions',
    'Philosophie {l} – La dissertation',
    'Textes philosophiques {l}',
  ],
  'Sciences économiques et sociales': [
    'Économie {l}',
    'Sciences économiques et sociales {l}',
    'Comptabilité et gestion {l}',
  ],
  Informatique: ['Informatique {l}', 'Initiation à l’algorithmique {l}', 'Bureautique et internet {l}'],
};
const extras = [
  '',
  '',
  '',
  " – Livre de l'élève",
  " – Cahier d'activités",
  " – Cahier d'exercices",
  ' – Nouvelle édition',
  ' – Programme officiel',
];

const publishersBySeries = (title: string, level: string) => {
  if (title.includes('Super efficace')) return 'IPN';
  if (title.startsWith('Excellent')) return 'Éditions Excellent';
  if (title.startsWith('CIAM') || title.startsWith('IPAM') || title.startsWith('Go for')) return 'EDICEF';
  if (title.includes('Gabon')) return pick(['IPN', 'Éditions Raponda Walker', 'Hachette Éducation']);
  return primary.includes(level)
    ? pick(['IPN', 'IPN', 'EDICEF', 'Hachette Éducation', 'Les Classiques Africains'])
    : pick(['Hachette Éducation', 'EDICEF', 'Nathan', 'Hatier', 'Bordas', 'NEI-CEDA', 'IPN']);
};

const firstNames = [
  'Jean',
  'Marie',
  'Paul',
  'Honorine',
  'Léon',
  'Sylvie',
  'Pierre',
  'Christelle',
  'Joseph',
  'Nadège',
  'Serge',
  'Brigitte',
  'André',
  'Pascaline',
  'Guy',
  'Régine',
  'Michel',
  'Françoise',
  'Alain',
  'Claudine',
];
const lastNames = [
  'Mba',
  'Nzé',
  'Obiang',
  'Ndong',
  'Mintsa',
  'Moussavou',
  'Mouélé',
  'Boussougou',
  'Nguema',
  'Ondo',
  'Ella',
  'Mbadinga',
  'Koumba',
  'Ntoutoume',
  'Bibang',
  'Essono',
  'Mboumba',
  'Makaya',
  'Nziengui',
  'Oyane',
  'Dupont',
  'Martin',
  'Lefèvre',
  'Diallo',
  'Kouassi',
  'Traoré',
];
const author = () =>
  rand() < 0.15
    ? pick(['Collectif IPN', 'Collectif', "Collectif d'enseignants gabonais", 'Collectif CIAM'])
    : `${pick(firstNames)} ${pick(lastNames)}${rand() < 0.3 ? ` et ${pick(firstNames)} ${pick(lastNames)}` : ''}`;

function isbn13() {
  const digits = `9782${String(Math.floor(rand() * 1e8)).padStart(8, '0')}`;
  const sum = [...digits].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  const check = (10 - (sum % 10)) % 10;
  return `${digits.slice(0, 3)}-${digits.slice(3, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}-${check}`;
}

const quartiers = [
  'Nzeng-Ayong',
  'Akébé',
  'Louis',
  'Glass',
  'PK8',
  'Charbonnages',
  'Okala',
  'Oloumi',
  'Mont-Bouët',
  'Lalala',
  'Nkembo',
  'Angondjé',
  'Bikélé',
];
const opening = [
  'Manuel utilisé une seule année par mon fils en classe de {l}.',
  'Livre de ma fille, passée en classe supérieure.',
  'Manuel conforme au programme officiel, toujours sur la liste de l’établissement.',
  'Vendu car mes enfants ont changé d’école.',
  'Livre acheté neuf à la rentrée, très peu servi.',
  'Manuel de {s} pour la classe de {l}.',
];
const state: Record<string, string[]> = {
  neuf: ['Jamais utilisé, encore sous film.', 'Aucune annotation, comme neuf.'],
  'très bon': ['Pages propres, quelques traces de crayon effaçables.', 'Couverture protégée, aucune page manquante.'],
  bon: ['Quelques annotations au crayon, pages complètes.', 'Couverture un peu usée, intérieur propre.'],
  acceptable: ['Exercices remplis au stylo, couverture abîmée.', 'Des pages cornées et surlignées, reste lisible.'],
  mauvais: ['Couverture déchirée, quelques pages volantes.', 'Très annoté, reliure fatiguée, mais complet.'],
};
const closing = [
  'Remise en main propre à {q}.',
  'Paiement Airtel Money ou Moov Money accepté.',
  'Prix à débattre si vous prenez plusieurs manuels.',
  'Idéal pour préparer le {e}.',
  'Échange possible contre un manuel de la classe supérieure.',
  'Disponible tout de suite, me contacter par téléphone.',
  'Avec le corrigé des exercices.',
];

/** Towns weighted roughly by population (Libreville and its neighbours about half the country). */
const townWeights: Record<string, number> = {
  Libreville: 40,
  'Port-Gentil': 10,
  Franceville: 7,
  Owendo: 6,
  Akanda: 5,
  Oyem: 4,
  Moanda: 3.5,
  Ntoum: 2.5,
  Lambaréné: 2.5,
  Mouila: 2.5,
  Tchibanga: 1.5,
  Koulamoutou: 1.5,
  Makokou: 1.2,
  Bitam: 1.2,
  Lastoursville: 0.8,
  Mounana: 0.7,
  Gamba: 0.6,
  Mitzic: 0.5,
  Ndendé: 0.4,
};

export async function seedBooks(db: pg.Client, count: number) {
  const categoryRows = (await db.query<{ id: number; name: string }>('select id, name from categories')).rows;
  const categoryId = new Map(categoryRows.map((c) => [c.name, c.id]));
  const cityRows = (await db.query<{ id: number; name: string }>('select id, name from cities')).rows;
  const city = weighted(cityRows.map((c) => [c.id, townWeights[c.name] ?? 0.2] as const));
  const slots: Array<readonly [[string, string], number]> = Object.entries(subjects).flatMap(([subject, levels]) =>
    levels.map((level) => [[subject, level], levelWeight(level) * (subject === 'Mathématiques' ? 1.5 : 1)] as const),
  );
  const slot = weighted(slots);

  // Sellers: a parent lists about five books; 1 % deactivated, 0.5 % deleted (their books stay out).
  const sellerCount = Math.max(1, Math.round(count / 5));
  const sellerIds = Array.from({ length: sellerCount }, (_, i) => {
    const hex = (i + 1).toString(16).padStart(12, '0');
    return `00000000-0000-4000-8000-${hex}`;
  });
  for (let start = 0; start < sellerIds.length; start += 10_000) {
    const ids = sellerIds.slice(start, start + 10_000);
    await db.query(
      `insert into sellers (user_id, name, username, country_id, city_id, created_at, deactivated_at, deleted_at)
       select u, n, 'parent' || o, 266, c, now() - (o % 700 || ' days')::interval,
              case when o % 100 = 7 then now() end, case when o % 200 = 3 then now() end
       from unnest($1::uuid[], $2::text[], $3::int[]) with ordinality as s(u, n, c, o)`,
      [ids, ids.map(() => `${pick(firstNames)} ${pick(lastNames)}`), ids.map(() => city())],
    );
  }

  const columns = {
    user_id: [] as string[],
    title: [] as string[],
    author: [] as string[],
    isbn: [] as Array<string | null>,
    description: [] as string[],
    publisher: [] as string[],
    publication_year: [] as number[],
    condition: [] as string[],
    price: [] as number[],
    status: [] as string[],
    city_id: [] as number[],
    is_negotiable: [] as boolean[],
    is_exchange_possible: [] as boolean[],
    views: [] as number[],
    category_ids: [] as string[],
    created_at: [] as string[],
    hidden_at: [] as Array<string | null>,
  };
  const now = Date.now();
  const flush = async () => {
    if (!columns.title.length) return;
    await db.query(
      `insert into books (user_id, title, author, isbn, description, publisher, publication_year, condition, price,
                          status, city_id, is_negotiable, is_exchange_possible, views, category_ids, created_at, hidden_at)
       select user_id, title, author, isbn, description, publisher, publication_year, condition, price, status,
              city_id, is_negotiable, is_exchange_possible, views, category_ids::integer[], created_at, hidden_at
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                            $8::text[], $9::int[], $10::text[], $11::int[], $12::bool[], $13::bool[], $14::int[],
                            $15::text[], $16::timestamptz[], $17::timestamptz[])
         as t(user_id, title, author, isbn, description, publisher, publication_year, condition, price, status,
              city_id, is_negotiable, is_exchange_possible, views, category_ids, created_at, hidden_at)`,
      Object.values(columns),
    );
    for (const list of Object.values(columns)) list.length = 0;
  };
  // unnest cannot take an integer[][] of ragged rows: categories travel as '{a,b}' text, cast below.
  for (let i = 0; i < count; i++) {
    const [subject, level] = slot();
    const base = pick(titles[subject]!).replace('{l}', level);
    const extra = pick(extras);
    const examName = exam(level);
    const title = examName && rand() < 0.15 ? `${base} – Réussir le ${examName}` : `${base}${extra}`;
    const condition = conditions();
    const raw = newPrice(level) * discount[condition]! * (0.75 + rand() * 0.5);
    const price = rand() < 0.01 ? 0 : Math.max(500, Math.round(raw / 250) * 250);
    const cityId = city();
    const description = [
      pick(opening).replace('{l}', level).replace('{s}', subject.toLowerCase()),
      pick(state[condition]!),
      pick(closing)
        .replace('{q}', pick(quartiers))
        .replace('{e}', examName ?? 'passage en classe supérieure'),
    ].join(' ');
    // Listed mostly in the weeks before the rentrée, over two years.
    const age = rand() < 0.6 ? Math.floor(rand() * 730) : Math.floor(rand() * 90) + (rand() < 0.5 ? 0 : 365);
    const statusDraw = rand();
    columns.user_id.push(sellerIds[Math.floor(rand() ** 1.5 * sellerCount)]!);
    columns.title.push(title);
    columns.author.push(author());
    columns.isbn.push(rand() < 0.7 ? isbn13() : null);
    columns.description.push(description);
    columns.publisher.push(publishersBySeries(base, level));
    columns.publication_year.push(2008 + Math.floor(rand() * 17));
    columns.condition.push(condition);
    columns.price.push(price);
    columns.status.push(statusDraw < 0.08 ? 'vendu' : statusDraw < 0.15 ? 'réservé' : 'disponible');
    columns.city_id.push(cityId);
    columns.is_negotiable.push(rand() < 0.55);
    columns.is_exchange_possible.push(rand() < 0.25);
    columns.views.push(Math.floor(rand() ** 4 * 800));
    columns.category_ids.push(
      `{${[categoryId.get(level), categoryId.get(subject)].filter((id) => id !== undefined).join(',')}}`,
    );
    columns.created_at.push(new Date(now - age * 86_400_000 - Math.floor(rand() * 86_400_000)).toISOString());
    columns.hidden_at.push(rand() < 0.005 ? new Date(now).toISOString() : null);
    if (columns.title.length === 10_000) await flush();
  }
  await flush();
  await db.query('vacuum analyze books');
  await db.query('analyze');
}
