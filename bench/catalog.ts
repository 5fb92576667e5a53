/**
 * Catalogue benchmark (issue "Catalogue", item 9): 100,000 books, then GET /api/books through the
 * gateway with 50 connections for (a) no filter, (b) a text query, (c) a text query with a
 * category, a price range, a city and sort by price; GET /api/books/{id}; GET
 * /api/categories/hierarchy; and (c) straight to the catalog service, to show the gateway's share.
 *   npm run bench -- catalog          (BOOKS=100000 DURATION=10 CONNECTIONS=50)
 * Target on a 2-core machine: (c) p99 under 50 ms and over 800 requests per second via the gateway.
 */
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startTestStack } from '../e2e/support/test-stack.ts';

const BOOKS = Number(process.env.BOOKS ?? 100_000);
const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 50);

const stack = await startTestStack({ env: { LOG_LEVEL: 'warn' } });
try {
  const db = new pg.Client({ connectionString: stack.databaseUrls.catalog });
  await db.connect();
  const started = Date.now();
  // Titles from the school subjects and levels, prices and towns spread, two categories a book.
  await db.query(
    `insert into books (user_id, title, author, publisher, condition, price, status, city_id, is_negotiable, is_exchange_possible, views, created_at, description)
     select gen_random_uuid(),
            (array['Mathématiques','Français','Physique-Chimie','Anglais','Histoire-Géographie','SVT','Philosophie','Lecture','Espagnol','Économie'])[1 + i % 10]
              || ' ' || (array['CP1','CE1','CM2','6e','5e','4e','3e','2nde','1ère D','Terminale D','Terminale C'])[1 + (i / 10) % 11]
              || ' – édition ' || (2010 + i % 15),
            (array['IPN','EDICEF','Hachette','Nathan','Hatier','Bordas'])[1 + i % 6],
            (array['IPN','EDICEF','Hachette','Nathan','Hatier','Bordas'])[1 + (i / 6) % 6],
            (array['neuf','très bon','bon','acceptable','mauvais'])[1 + i % 5],
            (i * 37) % 30000,
            case when i % 20 = 0 then 'vendu' when i % 13 = 0 then 'réservé' else 'disponible' end,
            (select id from cities order by id offset (i % 30) limit 1),
            i % 2 = 0, i % 3 = 0, i % 500, now() - (i || ' minutes')::interval,
            'Manuel scolaire d''occasion, bon état général.'
     from generate_series(1, $1) as i`,
    [BOOKS],
  );
  await db.query(`
    insert into book_categories (book_id, category_id, position)
    select b.id, c.id, 0 from books b join categories c on c.name = split_part(split_part(b.title, ' – ', 1), ' ', 2)
    on conflict do nothing`);
  await db.query(`
    insert into book_categories (book_id, category_id, position)
    select b.id, c.id, 1 from books b join categories c on c.name = split_part(b.title, ' ', 1)
    on conflict do nothing`);
  await db.query('analyze');
  const [{ id: cityId }] = (await db.query(`select id from cities where name = 'Libreville'`)).rows;
  const [{ id: categoryId }] = (await db.query(`select id from categories where name = 'Lycée'`)).rows;
  const [{ id: bookId }] = (await db.query('select id from books order by id desc limit 1')).rows;
  await db.end();
  // Counts are cached: drop the cache so it is rebuilt with the new books.
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  await redis.del(`cartable:${stack.id}:catalog:categories`);
  await redis.quit();
  console.log(
    `# ${BOOKS} books seeded in ${((Date.now() - started) / 1000).toFixed(1)} s; ${connections} connections, ${duration} s a run, Node ${process.version}`,
  );

  const c = `query=math%C3%A9matiques&category_ids=${categoryId}&min_price=1000&max_price=20000&city_id=${cityId}&sort_by=price&sort_direction=asc`;
  const runs: Array<[string, string]> = [
    ['(a) GET /api/books', `${stack.api}/books`],
    ['(b) GET /api/books?query=physique', `${stack.api}/books?query=physique`],
    ['(c) GET /api/books text + category + price + city + sort', `${stack.api}/books?${c}`],
    ['(c) straight to catalog', `${stack.url('catalog')}/books?${c}`],
    ['GET /api/books/{id}', `${stack.api}/books/${bookId}`],
    ['GET /api/categories/hierarchy', `${stack.api}/categories/hierarchy`],
  ];
  for (const [title, url] of runs) {
    await fetch(url); // warm caches
    const result = await autocannon({ url, connections, duration });
    console.log(
      JSON.stringify({
        title,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        errors: result.errors + result.non2xx,
      }),
    );
  }
} finally {
  await stack.teardown();
}
