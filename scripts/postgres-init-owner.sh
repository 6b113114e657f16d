#!/bin/sh
# Run once by the postgres image on an empty data directory (mounted in
# /docker-entrypoint-initdb.d by docker-compose.yml): makes baccarat_owner, the role that owns the
# application's tables and runs `migrate`. It may create roles (`manage.py grant_app_role` makes
# the application's, which may only read and append to the record) but is not a superuser.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v owner_password="$OWNER_DATABASE_PASSWORD" -v database="$POSTGRES_DB" <<'EOSQL'
CREATE ROLE baccarat_owner LOGIN NOSUPERUSER CREATEROLE PASSWORD :'owner_password';
ALTER DATABASE :"database" OWNER TO baccarat_owner;
EOSQL
