#!/usr/bin/env bash
# Make sure PostgreSQL answers on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (for `make test`):
# start them if installed, install them from Debian's packages if not.
set -euo pipefail

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

answers() { # host port
    timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null
}

postgres_ready() {
    if command -v pg_isready >/dev/null; then
        pg_isready -q -h 127.0.0.1 -p 5432
    else
        answers 127.0.0.1 5432
    fi
}

redis_ready() {
    if command -v redis-cli >/dev/null; then
        [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]
    else
        answers 127.0.0.1 6379
    fi
}

wait_for() { # name check-function
    for _ in $(seq 1 30); do
        if "$2"; then return 0; fi
        sleep 1
    done
    echo "ensure_services: $1 still does not answer after 30 s" >&2
    return 1
}

apt_updated=""
apt_install() {
    if [ -z "$apt_updated" ]; then as_root apt-get update; apt_updated=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

if ! postgres_ready; then
    fresh=""
    if ! command -v pg_ctlcluster >/dev/null || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
        echo "ensure_services: installing PostgreSQL" >&2
        apt_install postgresql
        fresh=1
    fi
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    if [ -n "$fresh" ]; then
        # The tests connect as postgres over TCP without a password, as on the dev machines. As
        # a superuser they may create roles: tests/record/test_database_roles.py makes the
        # application's role (manage.py grant_app_role) and connects as it, with a password.
        hba=/etc/postgresql/$version/main/pg_hba.conf
        as_root sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
    fi
    echo "ensure_services: starting PostgreSQL $version" >&2
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    wait_for PostgreSQL postgres_ready
fi

if ! redis_ready; then
    if ! command -v redis-server >/dev/null; then
        echo "ensure_services: installing Redis" >&2
        apt_install redis-server
    fi
    echo "ensure_services: starting Redis" >&2
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
    wait_for Redis redis_ready
fi

echo "ensure_services: PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 answer"
