-- docker compose only. Runs once, when the postgres volume is empty
-- (/docker-entrypoint-initdb.d of the postgres image, as the superuser).
-- One database per service, each owned by its own role: a service cannot read another's
-- tables. The passwords are development values; docker-compose.yml uses the same ones.
-- unaccent and pg_trgm are trusted extensions: each owner creates them in its migrations.

CREATE ROLE auth LOGIN PASSWORD 'auth';
CREATE DATABASE auth OWNER auth;

CREATE ROLE catalog LOGIN PASSWORD 'catalog';
CREATE DATABASE catalog OWNER catalog;

CREATE ROLE messaging LOGIN PASSWORD 'messaging';
CREATE DATABASE messaging OWNER messaging;

CREATE ROLE moderation LOGIN PASSWORD 'moderation';
CREATE DATABASE moderation OWNER moderation;

CREATE ROLE notifications LOGIN PASSWORD 'notifications';
CREATE DATABASE notifications OWNER notifications;

-- Nobody but the owner (and the superuser) connects to a service's database.
REVOKE CONNECT ON DATABASE auth, catalog, messaging, moderation, notifications FROM PUBLIC;
