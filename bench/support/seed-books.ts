import type pg from 'pg';

/**
 * Fills a catalog database with `count` books in a few SQL statements (seconds for 100,000):
 * titles from school subjects and levels, spread prices, towns and statuses, two categories each.
 */
export async function seedBooks(db: pg.Client, count: number) {
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
    [count],
  );
  // Two categories a book, main one first: the level, then the subject.
  await db.query(`
    update books b set category_ids = array_remove(array[
      (select c.id from categories c where c.name = split_part(split_part(b.title, ' – ', 1), ' ', 2)),
      (select c.id from categories c where c.name = split_part(b.title, ' ', 1))
    ], null)`);
  await db.query('analyze');
}
