#!/usr/bin/env bash
# Starts PgBouncer in transaction pooling mode on 127.0.0.1:6432 in front of the test
# PostgreSQL on 127.0.0.1:5432 (what managed PostgreSQL services put in front of theirs),
# unless something already answers there. Every database of the server is reachable through
# it (a `*` entry), so that the suites' per-test databases are too. Clients sign in as
# `ledger`/`ledger`. Run as root (PgBouncer itself then runs as `postgres`) or as that user.
set -euo pipefail

port=6432
if pg_isready -q -h 127.0.0.1 -p "$port"; then
  echo "== PgBouncer: something already answers on 127.0.0.1:$port, used as it is"
  exit 0
fi
if ! command -v pgbouncer >/dev/null && [ ! -x /usr/sbin/pgbouncer ]; then
  echo "== installing PgBouncer (Debian package)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
fi
bin="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"

dir="${PGBOUNCER_DIR:-/tmp/ledger-pgbouncer}"
mkdir -p "$dir"
# A plain password in the auth file: PgBouncer answers md5 (or SCRAM) to the client with it,
# and signs in to the server with it whatever pg_hba.conf asks there.
echo '"ledger" "ledger"' >"$dir/userlist.txt"
cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=5432

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = md5
auth_file = $dir/userlist.txt
pool_mode = transaction
; at least as many server connections per database as a test's app opens clients (a pool of
; 30 in tests/support/test-database.ts, up to 40 in a few suites, plus 4 for the read models),
; so that no client queues in PgBouncer behind connections held by its own app
default_pool_size = 50
max_client_conn = 1000
; lets the suite's role read SHOW POOLS / SHOW CLIENTS when a run is diagnosed
admin_users = ledger
; the per-test databases are dropped soon after: give their connections back early
server_idle_timeout = 10
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
chmod 600 "$dir/userlist.txt"
if [ "$(id -u)" = 0 ]; then
  chown -R postgres: "$dir"
  runuser -u postgres -- "$bin" -d "$dir/pgbouncer.ini"
else
  "$bin" -d "$dir/pgbouncer.ini"
fi
for _ in $(seq 1 20); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 0.5; done
pg_isready -q -h 127.0.0.1 -p "$port" || { echo "!! PgBouncer did not start (see $dir/pgbouncer.log)" >&2; exit 1; }
echo "== PgBouncer (transaction pooling) on 127.0.0.1:$port, log in $dir/pgbouncer.log"
