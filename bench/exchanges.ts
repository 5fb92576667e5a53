/**
 * Exchange matcher benchmark: 100,000 listings (bench/support/seed-books.ts),
 * 10,000 members with offers and wishes as families have them at the rentrée (a family offers
 * the books of the level its child finished and looks for the next level's, same subjects),
 * then the matcher: a first run, a second (each run suggests at most one new exchange per member,
 * so a member with more to offer gets another), and a run after 200 new wishes. Prints each run's time, the suggestions
 * made (pairs, cycles of three) and the members they serve.
 *   npm run bench -- exchanges          (BOOKS=100000 MEMBERS=10000)
 */
import pg from 'pg';
import { startCatalog } from '../services/catalog/test/harness.ts';
import { seedBooks } from './support/seed-books.ts';

const BOOKS = Number(process.env.BOOKS ?? 100_000);
const MEMBERS = Number(process.env.MEMBERS ?? 10_000);

/** A level and the one after it (the books a family will need next). */
const NEXT: Record<string, string> = {
  CP1: 'CP2',
  CP2: 'CE1',
  CE1: 'CE2',
  CE2: 'CM1',
  CM1: 'CM2',
  '6e': '5e',
  '5e': '4e',
  '4e': '3e',
  '3e': '2nde',
};

const h = await startCatalog({ LOG_LEVEL: 'warn' });
try {
  const client = new pg.Client({ connectionString: h.config.CATALOG_DATABASE_URL });
  await client.connect();
  let started = Date.now();
  await seedBooks(client, BOOKS);
  console.log(`# ${BOOKS} listings seeded in ${((Date.now() - started) / 1000).toFixed(1)} s, Node ${process.version}`);

  const ids = new Map(
    (await client.query<{ id: number; name: string }>('select id, name from categories')).rows.map((c) => [
      c.name,
      c.id,
    ]),
  );
  const levelIds = new Map([...Object.keys(NEXT)].map((l) => [ids.get(l)!, l]));
  const nextLevelId = (levelId: number) => ids.get(NEXT[levelIds.get(levelId)!]!)!;

  // The members: sellers with listings of a level that has a next one. Their books of that level
  // go « échange possible », and they wish for the next level's book of each subject they offer.
  started = Date.now();
  const candidates = (
    await client.query<{ user_id: string; level_id: number; subject_ids: number[]; book_ids: number[] }>(
      // One level per family: the one most of its listings are of.
      `select distinct on (b.user_id) b.user_id, b.category_ids[1] as level_id,
              array_agg(distinct b.category_ids[2]) as subject_ids, array_agg(b.id) as book_ids
       from books b join sellers s on s.user_id = b.user_id and s.deactivated_at is null and s.deleted_at is null
       where b.status = 'disponible' and b.hidden_at is null and b.category_ids[1] = any($1::int[])
         and array_length(b.category_ids, 1) >= 2
       group by b.user_id, b.category_ids[1]
       order by b.user_id, count(*) desc
       limit $2`,
      [[...levelIds.keys()], MEMBERS],
    )
  ).rows;
  const bookIds = candidates.flatMap((c) => c.book_ids);
  // A family lists its books where it lives.
  await client.query(
    `update books b set is_exchange_possible = true, city_id = coalesce(s.city_id, b.city_id)
     from sellers s where s.user_id = b.user_id and b.id = any($1::int[])`,
    [bookIds],
  );
  const wishes = candidates.flatMap((c) =>
    c.subject_ids.slice(0, 3).map((subject) => [c.user_id, nextLevelId(c.level_id), subject] as const),
  );
  const late = wishes.splice(wishes.length - 200, 200);
  const insert = async (rows: ReadonlyArray<readonly [string, number, number]>) => {
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      await client.query(
        `insert into exchange_wishes (user_id, level_id, subject_id)
         select * from unnest($1::uuid[], $2::int[], $3::int[]) on conflict do nothing`,
        [chunk.map((r) => r[0]), chunk.map((r) => r[1]), chunk.map((r) => r[2])],
      );
    }
  };
  await insert(wishes);
  const members = new Set(candidates.map((c) => c.user_id)).size;
  console.log(
    `# ${members} members, ${bookIds.length} listings open to exchange, ${wishes.length} wishes (prepared in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );

  const counts = async () =>
    (
      await client.query<{ kind: string; n: number; members: number }>(
        `select kind, count(*)::int as n, coalesce(sum(array_length(member_ids, 1)), 0)::int as members
         from exchange_suggestions where status = 'open' group by kind order by kind`,
      )
    ).rows;
  const timed = async (label: string) => {
    const t = performance.now();
    const made = await h.catalog.exchanges.runMatcher();
    const ms = performance.now() - t;
    console.log(`${label.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms   ${made ?? 0} suggestions made`);
    return ms;
  };

  await timed('first run');
  for (const row of await counts())
    console.log(`  ${row.kind.padEnd(6)} ${row.n} open, serving ${row.members} members`);
  await timed('second run (one more per member at most)');
  await insert(late);
  await timed('after 200 new wishes');
  for (const row of await counts())
    console.log(`  ${row.kind.padEnd(6)} ${row.n} open, serving ${row.members} members`);
  await client.end();
} finally {
  await h.teardown();
}
