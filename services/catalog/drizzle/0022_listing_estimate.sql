-- The planner's estimate of how many listings match a condition (the PostgreSQL wiki's « Count
-- estimate »), for a listing page's total when counting every match would cost more than the
-- page. Called in the statement that reads the page's ids, it saves a separate EXPLAIN's round
-- trip (bench catalog (c) distinct: a tenth more requests a second, a fifth off p99).
-- The condition is SQL text whose values the caller inlined (drizzle-orm escapes them). EXPLAIN
-- without ANALYZE runs nothing, but EXECUTE would run a second statement after a semicolon:
-- a condition holding one is refused (the caller sends those the separate way).
CREATE OR REPLACE FUNCTION cartable_listing_estimate(condition text) RETURNS double precision
  LANGUAGE plpgsql STRICT
  AS $$
DECLARE plan json;
BEGIN
  IF position(';' IN condition) > 0 THEN
    RAISE EXCEPTION 'cartable_listing_estimate: one condition only';
  END IF;
  EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM books WHERE ' || condition INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::double precision;
END $$;
