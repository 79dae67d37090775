#!/usr/bin/env bash
# A highly available PostgreSQL 15 on one machine, as docs/operations.md ("High availability")
# describes it: a primary and a synchronous standby under Patroni, etcd as Patroni's store,
# and HAProxy in front sending every connection to whichever node Patroni's REST API calls the
# primary. Debian's packages (patroni, etcd-server, haproxy) are installed when missing.
#
#   bash scripts/ha/cluster.sh start          # fresh cluster; prints the app's DATABASE_URL
#   bash scripts/ha/cluster.sh status         # Patroni's view: who leads, who is the sync standby, lag
#   bash scripts/ha/cluster.sh primary        # the leading node's name (node1 or node2)
#   bash scripts/ha/cluster.sh kill NODE      # kill -9 the node's Patroni and PostgreSQL: a lost machine
#   bash scripts/ha/cluster.sh stop-node NODE # stop the node cleanly (Patroni stops its PostgreSQL)
#   bash scripts/ha/cluster.sh start-node NODE  # start it again: it rejoins as a standby (pg_rewind if needed)
#   bash scripts/ha/cluster.sh wait-sync NODE # wait until NODE streams as the synchronous standby
#   bash scripts/ha/cluster.sh stop           # stop everything, keep the data
#   bash scripts/ha/cluster.sh clean          # stop everything and delete HA_DIR
#
# Its own ports, never the cluster on 5432: the router on HA_PORT (5440), PostgreSQL on 5441
# and 5442, Patroni's REST API on 8441 and 8442, etcd on 2479 (peers 2480), HAProxy's status
# page on 7440. Run as root (the servers then run as the `postgres` user) or as that user.
set -euo pipefail

dir="${HA_DIR:-/tmp/wallet-ledger-ha}"
router_port="${HA_PORT:-5440}"
stats_port="${HA_STATS_PORT:-7440}"
etcd_port="${HA_ETCD_PORT:-2479}"
pg_bin="/usr/lib/postgresql/15/bin"
scope="wallet-ledger"
# The app's role and database, and the servers' own accounts (loopback only, files mode 600).
app_user=ledger app_password=ledger app_db=ledger
superuser_password="${HA_SUPERUSER_PASSWORD:-ha-superuser}"
replication_password="${HA_REPLICATION_PASSWORD:-ha-replication}"

pg_port() { case "$1" in node1) echo 5441 ;; node2) echo 5442 ;; *) echo "!! unknown node '$1' (node1 or node2)" >&2; exit 2 ;; esac; }
rest_port() { case "$1" in node1) echo 8441 ;; node2) echo 8442 ;; *) echo "!! unknown node '$1'" >&2; exit 2 ;; esac; }

# Runs a server as `postgres` in its own session, replacing this shell (so `$!` is its pid).
as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    exec setsid setpriv --reuid=postgres --regid=postgres --init-groups env HOME="$dir" "$@"
  else
    exec setsid "$@"
  fi
}

install_packages() {
  local missing=()
  command -v patroni >/dev/null || missing+=(patroni)
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  [ -x "$pg_bin/postgres" ] || missing+=(postgresql-15)
  command -v curl >/dev/null || missing+=(curl)
  if [ "${#missing[@]}" -ne 0 ]; then
    echo "== installing ${missing[*]} (Debian packages)"
    apt-get update -qq
    # Whatever services the packages start on their default ports are not used: this script
    # starts its own, on the ports above.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Waits up to $1 seconds for the command that follows to succeed.
wait_for() {
  local seconds=$1
  shift
  for _ in $(seq 1 $((seconds * 5))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}

write_configs() {
  mkdir -p "$dir/etcd" "$dir/node1" "$dir/node2"
  local node
  for node in node1 node2; do
    cat >"$dir/$node.yml" <<YAML
scope: $scope
name: $node
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:$(rest_port "$node")
  connect_address: 127.0.0.1:$(rest_port "$node")
etcd3:
  hosts: 127.0.0.1:$etcd_port
bootstrap:
  dcs:
    # The leader's key lives 10 s without renewal; Patroni's loop runs every 2 s and gives up on
    # etcd or PostgreSQL after 3 s (loop_wait + 2 x retry_timeout <= ttl).
    ttl: 10
    loop_wait: 2
    retry_timeout: 3
    # Only a standby that confirmed every acknowledged commit may be promoted.
    synchronous_mode: true
    # Not strict: with the standby gone the primary goes on alone (Patroni empties
    # synchronous_standby_names) instead of holding every commit until it returns.
    synchronous_mode_strict: false
    maximum_lag_on_failover: 0
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        synchronous_commit: 'on'
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - data-checksums
postgresql:
  listen: 127.0.0.1:$(pg_port "$node")
  connect_address: 127.0.0.1:$(pg_port "$node")
  data_dir: $dir/$node/data
  bin_dir: $pg_bin
  pgpass: $dir/$node/pgpass
  authentication:
    superuser: { username: postgres, password: '$superuser_password' }
    replication: { username: replicator, password: '$replication_password' }
    rewind: { username: postgres, password: '$superuser_password' }
  parameters:
    unix_socket_directories: '$dir/$node'
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
tags:
  nofailover: false
  noloadbalance: false
YAML
    chmod 600 "$dir/$node.yml"
  done
  cat >"$dir/haproxy.cfg" <<CFG
global
  maxconn 1000
  pidfile $dir/haproxy.pid

defaults
  mode tcp
  retries 2
  timeout connect 2s
  # Pooled connections sit idle for long: keep them; a dead server ends them below.
  timeout client 30m
  timeout server 30m
  timeout check 1s

# Every connection goes to the node whose Patroni answers 200 on /primary, checked every
# second; a node that fails two checks in a row is out, and its connections are cut at once.
listen postgres_primary
  bind 127.0.0.1:$router_port
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 1s fastinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
  server node1 127.0.0.1:$(pg_port node1) maxconn 400 check port $(rest_port node1)
  server node2 127.0.0.1:$(pg_port node2) maxconn 400 check port $(rest_port node2)

listen stats
  mode http
  bind 127.0.0.1:$stats_port
  stats enable
  stats uri /
  stats refresh 2s
CFG
  [ "$(id -u)" = 0 ] && chown -R postgres: "$dir"
  return 0
}

start_etcd() {
  alive "$dir/etcd.pid" && return 0
  (as_postgres etcd --name "$scope" --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$((etcd_port + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$((etcd_port + 1))" \
    --initial-cluster "$scope=http://127.0.0.1:$((etcd_port + 1))" --log-level warn) >>"$dir/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"
  wait_for 30 curl -sf "http://127.0.0.1:$etcd_port/health" || { echo "!! etcd did not start ($dir/etcd.log)" >&2; exit 1; }
}

start_node() {
  local node=$1
  alive "$dir/$node.pid" && return 0
  (as_postgres patroni "$dir/$node.yml") >>"$dir/$node.log" 2>&1 &
  echo $! >"$dir/$node.pid"
}

start_router() {
  alive "$dir/haproxy.pid" && return 0
  local bin
  bin="$(command -v haproxy || echo /usr/sbin/haproxy)"
  # Runs as root or postgres alike: it binds ports above 1024 only.
  "$bin" -D -f "$dir/haproxy.cfg" >>"$dir/haproxy.log" 2>&1
  wait_for 10 pg_isready -q -h 127.0.0.1 -p "$router_port" || { echo "!! HAProxy does not route to a primary" >&2; exit 1; }
}

# The REST API's answer about a node: its role, state and timeline (JSON).
node_info() { curl -sf --max-time 2 "http://127.0.0.1:$(rest_port "$1")/patroni"; }
is_primary() { curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$(rest_port "$1")/primary"; }
is_sync_standby() { curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$(rest_port "$1")/sync"; }

primary() {
  local node
  for node in node1 node2; do
    if is_primary "$node"; then
      echo "$node"
      return 0
    fi
  done
  return 1
}

psql_super() {
  local port=$1
  shift
  PGPASSWORD="$superuser_password" psql -v ON_ERROR_STOP=1 -qAt -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"
}

create_app_database() {
  local port
  port=$(pg_port "$(primary)")
  psql_super "$port" <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$app_user') THEN
    CREATE ROLE $app_user LOGIN PASSWORD '$app_password' CREATEDB;
  END IF;
END \$\$;
SELECT 'create database $app_db owner $app_user' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$app_db') \gexec
SQL
}

stop_pidfile() {
  local file=$1 signal=${2:-TERM}
  if alive "$file"; then
    local pid
    pid=$(cat "$file")
    kill "-$signal" "$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$file"
}

# The postmaster's pid, from its data folder (PostgreSQL's own record).
postmaster_pid() { head -1 "$dir/$1/data/postmaster.pid" 2>/dev/null || true; }

stop_all() {
  [ -f "$dir/haproxy.pid" ] && stop_pidfile "$dir/haproxy.pid"
  local node pid
  for node in node1 node2; do
    stop_pidfile "$dir/$node.pid"
    # A PostgreSQL left by a killed Patroni.
    pid=$(postmaster_pid "$node")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -INT "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    fi
  done
  stop_pidfile "$dir/etcd.pid"
}

cmd=${1:-}
case "$cmd" in
  start)
    install_packages
    if [ -d "$dir" ]; then
      stop_all
      rm -rf "$dir"
    fi
    mkdir -p "$dir"
    write_configs
    start_etcd
    start_node node1
    wait_for 90 is_primary node1 || { echo "!! node1 did not become primary ($dir/node1.log)" >&2; exit 1; }
    start_node node2
    wait_for 120 is_sync_standby node2 || { echo "!! node2 did not become the synchronous standby ($dir/node2.log)" >&2; exit 1; }
    start_router
    create_app_database
    echo "== PostgreSQL 15: primary node1 (127.0.0.1:5441), synchronous standby node2 (127.0.0.1:5442), under Patroni"
    echo "== HAProxy routes to the primary on 127.0.0.1:$router_port (status page http://127.0.0.1:$stats_port/)"
    echo "DATABASE_URL=postgres://$app_user:$app_password@127.0.0.1:$router_port/$app_db"
    ;;
  status)
    patronictl -c "$dir/node1.yml" list
    ;;
  primary)
    primary
    ;;
  kill)
    node=${2:?node}
    # Patroni first, so that it cannot restart the PostgreSQL it loses: the machine is gone.
    pid=$(postmaster_pid "$node")
    alive "$dir/$node.pid" && kill -KILL "$(cat "$dir/$node.pid")"
    [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
    rm -f "$dir/$node.pid"
    # The backends notice their postmaster's death by themselves; wait until they are gone too.
    for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 -p "$(pg_port "$node")" || break; sleep 0.1; done
    echo "== $node killed (SIGKILL to Patroni and the postmaster)"
    ;;
  stop-node)
    node=${2:?node}
    stop_pidfile "$dir/$node.pid"
    echo "== $node stopped"
    ;;
  start-node)
    node=${2:?node}
    start_node "$node"
    echo "== $node started"
    ;;
  wait-sync)
    node=${2:?node}
    wait_for "${3:-120}" is_sync_standby "$node" || { echo "!! $node is not the synchronous standby ($dir/$node.log)" >&2; exit 1; }
    echo "== $node streams as the synchronous standby"
    ;;
  info)
    node_info "${2:?node}"
    ;;
  stop)
    stop_all
    ;;
  clean)
    stop_all
    rm -rf "$dir"
    ;;
  *)
    sed -n '2,20p' "$0" >&2
    exit 2
    ;;
esac
