import type { Db } from '@cartable/service-kit';
import { isNotNull } from 'drizzle-orm';
import { categoryIdsByName, cityIdByName } from '../../taxonomy/index.ts';
import { classListItems, classLists } from './schema.ts';

/**
 * The class book lists of the demo data: an official list of 2026-2027 for every level
 * of the school categories, and one private school's own list for 6e in Libreville.
 *
 * ILLUSTRATIVE: built from the collections and publishers used in Gabon (DOMAIN.md: « Super
 * efficace » and « Excellent » in primary, Hachette, EDICEF, Nathan, Hatier, Bordas and the IPN in
 * secondary) and the titles of the demo catalogue; they are not the IPN's published list, and
 * every `source_note` says so. ISBNs are left empty: none is invented.
 */
export const SEED_SCHOOL_YEAR = '2026-2027';
export const ILLUSTRATIVE_NOTE =
  'Liste illustrative (données de démonstration) : titres et éditeurs réalistes, ce n’est pas la liste officielle publiée par l’IPN.';

/** [subject, title, author, publisher, year, recommended?] */
type Row = [string, string, string, string, number | null, boolean?];

const SE = 'Super efficace (IPN)';
const EX = 'Collection Excellent';
const ipn = 'Institut Pédagogique National';

const primary: Record<string, { alias: string; rows: Row[] }> = {
  CP1: {
    alias: '1ère année',
    rows: [
      ['Lecture', 'Mon premier livre de lecture', ipn, 'IPN', 2019],
      ['Lecture', 'Super efficace Lecture 1ère année', 'Collectif IPN', SE, 2021],
      ['Mathématiques', 'Super efficace Mathématiques 1ère année', 'Collectif IPN', SE, 2021],
      ['Français', 'Excellent Français CP1 – Je parle, je lis, j’écris', 'Collectif', EX, 2020],
      ["Sciences d'observation", 'Excellent Découverte du monde CP1', 'Collectif', EX, 2020, true],
    ],
  },
  CP2: {
    alias: '2e année',
    rows: [
      ['Lecture', 'Super efficace Lecture 2e année', 'Collectif IPN', SE, 2021],
      ['Mathématiques', 'Calcul CP2 – Je compte au Gabon', ipn, 'IPN', 2018],
      ['Mathématiques', 'Super efficace Mathématiques 2e année', 'Collectif IPN', SE, 2021],
      ['Français', 'Excellent Français CP2', 'Collectif', EX, 2020],
      ['Éducation civique et morale', 'Excellent Éducation civique et morale CP2', 'Collectif', EX, 2020, true],
    ],
  },
  CE1: {
    alias: '3e année',
    rows: [
      ['Lecture', 'Lire et comprendre CE1', ipn, 'IPN', 2019],
      ['Français', 'Super efficace Français 3e année', 'Collectif IPN', SE, 2022],
      ['Mathématiques', 'Super efficace Mathématiques 3e année', 'Collectif IPN', SE, 2022],
      ["Sciences d'observation", 'Excellent Sciences d’observation CE1', 'Collectif', EX, 2020],
      ['Histoire-Géographie', 'Excellent Histoire-Géographie CE1 – Mon Gabon', 'Collectif', EX, 2020, true],
    ],
  },
  CE2: {
    alias: '3e année (CE2)',
    rows: [
      ['Lecture', 'Super efficace Lecture CE2', 'Collectif IPN', SE, 2022],
      ['Français', 'Super efficace Français CE2', 'Collectif IPN', SE, 2022],
      ['Mathématiques', 'Mathématiques CE2', 'Collectif', 'EDICEF', 2017],
      ["Sciences d'observation", 'Excellent Sciences d’observation CE2', 'Collectif', EX, 2020],
      ['Histoire-Géographie', 'Excellent Histoire-Géographie CE2', 'Collectif', EX, 2020, true],
    ],
  },
  CM1: {
    alias: '4e année',
    rows: [
      ['Français', 'Français CM1 – Grammaire et conjugaison', 'Collectif', 'Hachette Éducation', 2016],
      ['Français', 'Super efficace Français 4e année', 'Collectif IPN', SE, 2023],
      ['Mathématiques', 'Le Nouveau Calcul CM1', 'Collectif', 'EDICEF', 2015],
      ['Mathématiques', 'Super efficace Mathématiques 4e année', 'Collectif IPN', SE, 2023],
      ["Sciences d'observation", 'Excellent Sciences CM1', 'Collectif', EX, 2021],
      ['Anglais', 'Excellent English CM1', 'Collectif', EX, 2021, true],
    ],
  },
  CM2: {
    alias: '5e année',
    rows: [
      ['Français', 'Français CM2 – Préparer l’entrée en 6e', 'Collectif', 'Hachette Éducation', 2016],
      ['Français', 'Super efficace Français 5e année', 'Collectif IPN', SE, 2023],
      ['Mathématiques', 'Mathématiques CM2 – Réussir le CEP', 'Collectif', 'EDICEF', 2018],
      ['Mathématiques', 'Super efficace Mathématiques 5e année', 'Collectif IPN', SE, 2023],
      ['Histoire-Géographie', 'Histoire et Géographie du Gabon CM2', ipn, 'IPN', 2017],
      ["Sciences d'observation", 'Excellent Sciences CM2', 'Collectif', EX, 2021],
      ['Éducation civique et morale', 'Excellent Éducation civique et morale CM2', 'Collectif', EX, 2021, true],
    ],
  },
};

const secondary: Record<string, Row[]> = {
  '6e': [
    ['Mathématiques', 'Mathématiques 6e – Collection Excellence', 'Collectif', 'Hatier', 2018],
    ['Mathématiques', 'CIAM 6e – Collection Inter-Africaine de Mathématiques', 'Collectif CIAM', 'EDICEF', 2016, true],
    ['Français', 'Français 6e – Le Livre Unique', 'Collectif', 'Hatier', 2017],
    ['Anglais', 'Go for English 6e', 'Collectif', 'EDICEF', 2015],
    ['Histoire-Géographie', 'Histoire-Géographie 6e – Le Gabon et le monde', 'Collectif', 'Hachette Éducation', 2019],
    ['Sciences de la vie et de la Terre', 'SVT 6e – Planète vivante', 'Collectif', 'Hatier', 2018],
    ['Physique-Chimie', 'Physique-Chimie 6e', 'Collectif', 'Hachette Éducation', 2018],
    ['Éducation civique et morale', 'Éducation civique et morale 6e', ipn, 'IPN', 2020, true],
  ],
  '5e': [
    ['Mathématiques', 'Mathématiques 5e – CIAM', 'Collectif CIAM', 'EDICEF', 2016],
    ['Français', 'Français 5e – Le Livre Unique', 'Collectif', 'Hatier', 2017],
    ['Anglais', 'Go for English 5e', 'Collectif', 'EDICEF', 2015],
    ['Histoire-Géographie', 'Histoire-Géographie 5e', 'Collectif', 'Hachette Éducation', 2019],
    ['Sciences de la vie et de la Terre', 'SVT 5e', 'Collectif', 'Hatier', 2018],
    ['Physique-Chimie', 'Physique-Chimie 5e', 'Collectif', 'Hachette Éducation', 2018],
    ['Éducation civique et morale', 'Éducation civique et morale 5e', ipn, 'IPN', 2020, true],
  ],
  '4e': [
    ['Mathématiques', 'Mathématiques 4e – CIAM', 'Collectif CIAM', 'EDICEF', 2016],
    ['Français', 'Français 4e – Textes et méthodes', 'Collectif', 'Nathan', 2018],
    ['Anglais', 'Go for English 4e', 'Collectif', 'EDICEF', 2015],
    ['Espagnol', '¡Español! 4e', 'Collectif', 'EDICEF', 2017],
    ['Histoire-Géographie', 'Histoire-Géographie 4e', 'Collectif', 'Hachette Éducation', 2019],
    ['Sciences de la vie et de la Terre', 'SVT 4e', 'Collectif', 'Bordas', 2018],
    ['Physique-Chimie', 'Physique-Chimie 4e', 'Collectif', 'Hachette Éducation', 2018],
  ],
  '3e': [
    ['Mathématiques', 'Mathématiques 3e – Préparer le BEPC', 'Collectif', 'EDICEF', 2019],
    ['Mathématiques', 'CIAM 3e', 'Collectif CIAM', 'EDICEF', 2016, true],
    ['Français', 'Français 3e – Textes et expression', 'Collectif', 'Nathan', 2018],
    ['Anglais', 'Go for English 3e', 'Collectif', 'EDICEF', 2015],
    ['Espagnol', '¡Español! 3e', 'Collectif', 'EDICEF', 2017],
    ['Histoire-Géographie', 'Histoire-Géographie 3e', 'Collectif', 'Hachette Éducation', 2019],
    ['Sciences de la vie et de la Terre', 'SVT 3e', 'Collectif', 'Bordas', 2018],
    ['Physique-Chimie', 'Physique-Chimie 3e – BEPC', 'Collectif', 'Hachette Éducation', 2018],
  ],
  '2nde': [
    ['Mathématiques', 'Mathématiques 2nde – CIAM', 'Collectif CIAM', 'EDICEF', 2017],
    ['Français', 'Français 2nde – Méthodes', 'Collectif', 'Hatier', 2019],
    ['Anglais', 'English in Africa 2nde', 'Collectif', 'EDICEF', 2016],
    ['Espagnol', 'Horizontes 2nde', 'Collectif', 'Hachette Éducation', 2018, true],
    ['Histoire-Géographie', 'Histoire-Géographie 2nde', 'Collectif', 'Hatier', 2019],
    ['Physique-Chimie', 'Physique-Chimie 2nde', 'Collectif', 'Nathan', 2019],
    ['Sciences de la vie et de la Terre', 'SVT 2nde', 'Collectif', 'Bordas', 2019],
    ['Informatique', 'Informatique 2nde – Initiation', ipn, 'IPN', 2021, true],
  ],
};

/** The lycée's series: the books shared by a level, and each series' own. */
const lyceeCommon = (level: '1ère' | 'Terminale'): Row[] =>
  level === '1ère'
    ? [
        ['Français', 'Français 1ère – Anthologie de la littérature gabonaise', 'Collectif', 'IPN', 2020],
        ['Anglais', 'English in Africa 1ère', 'Collectif', 'EDICEF', 2016],
        ['Histoire-Géographie', 'Histoire-Géographie 1ère', 'Collectif', 'Hatier', 2019],
      ]
    : [
        ['Philosophie', 'Philosophie Terminale – Les grandes notions', 'Collectif', 'Hatier', 2018],
        ['Anglais', 'English for the Baccalauréat', 'Collectif', 'EDICEF', 2017],
        ['Histoire-Géographie', 'Histoire-Géographie Terminale', 'Collectif', 'Hatier', 2019],
      ];

const series: Record<string, Row[]> = {
  '1ère A1': [
    ['Français', 'Littérature africaine 1ère A', 'Collectif', 'Les Classiques Africains', 2015],
    ['Mathématiques', 'Mathématiques 1ère A', 'Collectif CIAM', 'EDICEF', 2017],
    ['Sciences de la vie et de la Terre', 'SVT 1ère A', 'Collectif', 'Bordas', 2018, true],
  ],
  '1ère A2': [
    ['Français', 'Littérature africaine 1ère A', 'Collectif', 'Les Classiques Africains', 2015],
    ['Mathématiques', 'Mathématiques 1ère A', 'Collectif CIAM', 'EDICEF', 2017],
    ['Espagnol', 'Horizontes 1ère', 'Collectif', 'Hachette Éducation', 2018],
  ],
  '1ère B': [
    ['Sciences économiques et sociales', 'Économie 1ère B', 'Collectif', 'Nathan', 2019],
    ['Mathématiques', 'Mathématiques 1ère B – CIAM', 'Collectif CIAM', 'EDICEF', 2017],
    ['Sciences de la vie et de la Terre', 'SVT 1ère B', 'Collectif', 'Bordas', 2018, true],
  ],
  '1ère C': [
    ['Mathématiques', 'Mathématiques 1ère C – Analyse et géométrie', 'Collectif CIAM', 'EDICEF', 2018],
    ['Physique-Chimie', 'Physique-Chimie 1ère C', 'Collectif', 'Nathan', 2019],
    ['Sciences de la vie et de la Terre', 'SVT 1ère C', 'Collectif', 'Bordas', 2018, true],
    ['Informatique', 'Informatique 1ère – Algorithmique', ipn, 'IPN', 2021, true],
  ],
  '1ère D': [
    ['Mathématiques', 'Mathématiques 1ère D', 'Collectif CIAM', 'EDICEF', 2018],
    ['Sciences de la vie et de la Terre', 'SVT 1ère D', 'Collectif', 'Bordas', 2018],
    ['Physique-Chimie', 'Physique-Chimie 1ère D', 'Collectif', 'Nathan', 2019],
  ],
  'Terminale A1': [
    ['Français', 'Littérature africaine Terminale A', 'Collectif', 'Les Classiques Africains', 2015],
    ['Mathématiques', 'Mathématiques Terminale A', 'Collectif CIAM', 'EDICEF', 2017, true],
  ],
  'Terminale A2': [
    ['Français', 'Littérature africaine Terminale A', 'Collectif', 'Les Classiques Africains', 2015],
    ['Espagnol', 'Horizontes Terminale', 'Collectif', 'Hachette Éducation', 2018],
  ],
  'Terminale B': [
    ['Sciences économiques et sociales', 'Économie Terminale B', 'Collectif', 'Nathan', 2019],
    ['Mathématiques', 'Mathématiques Terminale B – CIAM', 'Collectif CIAM', 'EDICEF', 2017],
  ],
  'Terminale C': [
    ['Mathématiques', 'Mathématiques Terminale C', 'Collectif CIAM', 'EDICEF', 2018],
    ['Physique-Chimie', 'Physique Terminale C – Exercices corrigés', 'Collectif', 'Hachette Éducation', 2019],
    ['Sciences de la vie et de la Terre', 'SVT Terminale C', 'Collectif', 'Bordas', 2018, true],
  ],
  'Terminale D': [
    ['Mathématiques', 'Mathématiques Terminale D – Réussir le Bac', 'Collectif CIAM', 'EDICEF', 2018],
    ['Physique-Chimie', 'Physique-Chimie Terminale D', 'Collectif', 'Nathan', 2019],
    ['Sciences de la vie et de la Terre', 'SVT Terminale D – Annales', 'Collectif', 'Bordas', 2020],
    ['Philosophie', 'Philosophie Terminale D', 'Collectif', 'Hatier', 2018, true],
  ],
};

/** The private school's own 6e list (it differs from the official one, as DOMAIN.md says they do). */
export const SEED_SCHOOL = { name: 'Collège privé Les Manguiers (illustratif)', city: 'Libreville' };
const schoolSixth: Row[] = [
  ['Mathématiques', 'CIAM 6e – Collection Inter-Africaine de Mathématiques', 'Collectif CIAM', 'EDICEF', 2016],
  ['Français', 'Français 6e – Le Livre Unique', 'Collectif', 'Hatier', 2017],
  ['Français', 'L’Enfant noir', 'Camara Laye', 'Pocket', 2007],
  ['Anglais', 'New Parade 6e', 'Collectif', 'EDICEF', 2019],
  ['Histoire-Géographie', 'Histoire-Géographie 6e – Le Gabon et le monde', 'Collectif', 'Hachette Éducation', 2019],
  ['Sciences de la vie et de la Terre', 'SVT 6e – Planète vivante', 'Collectif', 'Hatier', 2018],
  ['Physique-Chimie', 'Physique-Chimie 6e', 'Collectif', 'Hachette Éducation', 2018, true],
];

interface SeedList {
  key: string;
  level: string;
  kind: 'official' | 'school';
  school?: { name: string; city: string };
  note: string;
  rows: Row[];
}

export function seedClassListDefinitions(): SeedList[] {
  const lists: SeedList[] = [];
  for (const [level, { alias, rows }] of Object.entries(primary))
    lists.push({
      key: `official-${SEED_SCHOOL_YEAR}-${level}`,
      level,
      kind: 'official',
      note: `Liste officielle ${SEED_SCHOOL_YEAR}, ${level} (${alias}). ${ILLUSTRATIVE_NOTE}`,
      rows,
    });
  for (const [level, rows] of Object.entries(secondary))
    lists.push({
      key: `official-${SEED_SCHOOL_YEAR}-${level}`,
      level,
      kind: 'official',
      note: `Liste officielle ${SEED_SCHOOL_YEAR}, ${level}. ${ILLUSTRATIVE_NOTE}`,
      rows,
    });
  for (const [serie, rows] of Object.entries(series)) {
    const level = serie.startsWith('1ère') ? '1ère' : 'Terminale';
    lists.push({
      key: `official-${SEED_SCHOOL_YEAR}-${serie}`,
      level: serie,
      kind: 'official',
      note: `Liste officielle ${SEED_SCHOOL_YEAR}, ${serie}. ${ILLUSTRATIVE_NOTE}`,
      rows: [...lyceeCommon(level), ...rows],
    });
  }
  lists.push({
    key: `school-${SEED_SCHOOL_YEAR}-6e-manguiers`,
    level: '6e',
    kind: 'school',
    school: SEED_SCHOOL,
    note: `Liste de l’établissement ${SEED_SCHOOL_YEAR}, 6e. ${ILLUSTRATIVE_NOTE}`,
    rows: schoolSixth,
  });
  return lists;
}

/**
 * The demo lists (SEED_DEMO=1), on a database that holds no seeded list yet: a restart or an
 * upgrade adds them once, and an operator's later edits or deletions stand. One transaction, each
 * list keyed (`seed_key`): two replicas seeding at once write each list once.
 */
export async function seedClassLists(db: Db) {
  const [seeded] = await db
    .select({ id: classLists.id })
    .from(classLists)
    .where(isNotNull(classLists.seedKey))
    .limit(1);
  if (seeded) return 0;
  const catId = await categoryIdsByName(db);
  let created = 0;
  await db.transaction(async (tx) => {
    for (const def of seedClassListDefinitions()) {
      const levelId = catId.get(def.level);
      if (!levelId) continue; // categories renamed by an operator: nothing to hang the list on
      const cityId = def.school ? await cityIdByName(tx, def.school.city) : null;
      const [list] = await tx
        .insert(classLists)
        .values({
          seedKey: def.key,
          schoolYear: SEED_SCHOOL_YEAR,
          levelId,
          kind: def.kind,
          schoolName: def.school?.name ?? null,
          cityId,
          status: 'published',
          sourceNote: def.note,
          publishedAt: new Date(),
        })
        .onConflictDoNothing()
        .returning({ id: classLists.id });
      if (!list) continue; // another replica, or an operator's own list for that year and level
      await tx.insert(classListItems).values(
        def.rows.map(([subject, title, author, publisher, year, recommended], position) => ({
          listId: list.id,
          title,
          author,
          publisher,
          year,
          subjectId: catId.get(subject) ?? null,
          requirement: recommended ? ('recommended' as const) : ('required' as const),
          position,
        })),
      );
      created++;
    }
  });
  return created;
}
