#!/usr/bin/env bash
# A cluster on one machine: HAProxy on PORT and three nodes on PORT+1..PORT+3, sharing the
# given PostgreSQL and Redis (docs/operations.md). Runs in the foreground; SIGINT or SIGTERM
# stops all of it (the nodes drain first). Needs `npm run build` and haproxy
# (scripts/install-deps.sh installs it).
#   PORT=8080 DATABASE_URL=postgres://… REDIS_URL=redis://… bash scripts/cluster.sh
set -euo pipefail

: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL server (cluster mode cannot use the embedded database)}"
: "${REDIS_URL:?set REDIS_URL to a Redis server (redis://host:6379)}"
PORT="${PORT:-8080}"
root="$(cd "$(dirname "$0")/.." && pwd)"
main="$root/apps/server/dist/main.js"
haproxy_bin="$(command -v haproxy || echo /usr/sbin/haproxy)"
[ -f "$main" ] || { echo "cluster.sh: $main is missing: run npm run build first" >&2; exit 1; }
[ -x "$haproxy_bin" ] || { echo "cluster.sh: haproxy is missing: run bash scripts/install-deps.sh" >&2; exit 1; }

# One data folder for all nodes: the token secret (made once) and the sessions' git repositories.
export DATA_DIR="${DATA_DIR:-$root/data/cluster}"
mkdir -p "$DATA_DIR"
export DATABASE_URL REDIS_URL TRUST_PROXY=true
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-localhost:$PORT,127.0.0.1:$PORT}"
export LB_BIND="${LB_BIND:-0.0.0.0}" LB_PORT="$PORT"
export NODE1_PORT=$((PORT + 1)) NODE2_PORT=$((PORT + 2)) NODE3_PORT=$((PORT + 3))

pids=()
stop() {
  trap - INT TERM
  echo "cluster.sh: stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait
  exit 0
}
trap stop INT TERM

for n in 1 2 3; do
  port_var="NODE${n}_PORT"
  PORT="${!port_var}" HOST="${NODE_HOST:-127.0.0.1}" NODE_ID="node$n" node "$main" &
  pids+=("$!")
done
"$haproxy_bin" -db -f "$root/scripts/cluster/haproxy.cfg" &
pids+=("$!")
echo "cluster.sh: balancer on http://localhost:$PORT, nodes on $NODE1_PORT, $NODE2_PORT, $NODE3_PORT (Ctrl-C stops)"
# A node that dies (killed to try a failover, say) leaves the others running; wait until stopped.
while true; do wait || true; sleep 1; done
