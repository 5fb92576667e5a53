/**
 * The Gabonese school system as categories: cycles, their levels (and the lycée's series),
 * and the subjects taught, each subject hanging under every level that teaches it.
 */
const primaire = ['CP1', 'CP2', 'CE1', 'CE2', 'CM1', 'CM2'];
const college = ['6e', '5e', '4e', '3e'];
const premiere = ['1ère A1', '1ère A2', '1ère B', '1ère C', '1ère D'];
const terminale = ['Terminale A1', 'Terminale A2', 'Terminale B', 'Terminale C', 'Terminale D'];

export const cycles: Array<{ name: string; levels: Array<{ name: string; series?: string[] }> }> = [
  { name: 'Primaire', levels: primaire.map((name) => ({ name })) },
  { name: 'Collège', levels: college.map((name) => ({ name })) },
  {
    name: 'Lycée',
    levels: [{ name: '2nde' }, { name: '1ère', series: premiere }, { name: 'Terminale', series: terminale }],
  },
];

const lycee = ['2nde', ...premiere, ...terminale];
const scientific = ['2nde', '1ère C', '1ère D', 'Terminale C', 'Terminale D'];

/** Subject → the levels (or series) that teach it. */
export const subjects: Record<string, string[]> = {
  Lecture: ['CP1', 'CP2', 'CE1', 'CE2'],
  Français: [...primaire, ...college, ...lycee],
  Mathématiques: [...primaire, ...college, ...lycee],
  "Sciences d'observation": primaire,
  'Histoire-Géographie': ['CE1', 'CE2', 'CM1', 'CM2', ...college, ...lycee],
  'Éducation civique et morale': [...primaire, ...college],
  Anglais: ['CM1', 'CM2', ...college, ...lycee],
  Espagnol: ['4e', '3e', ...lycee],
  'Physique-Chimie': [...college, ...scientific],
  'Sciences de la vie et de la Terre': [...college, ...scientific, '1ère A1', '1ère A2', '1ère B'],
  Philosophie: [...terminale],
  'Sciences économiques et sociales': ['1ère B', 'Terminale B'],
  Informatique: ['2nde', '1ère C', '1ère D', 'Terminale C', 'Terminale D'],
};
