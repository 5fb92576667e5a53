-- users.version goes up by one at every update, whichever statement makes it: user events carry
-- it, and other services' projections keep the highest version they have seen.
CREATE OR REPLACE FUNCTION users_bump_version() RETURNS trigger AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_version BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION users_bump_version();
