#!/usr/bin/env bash
# Checks migrations/postgresql on a throwaway PostgreSQL 15 server of its own:
# applies the steps as the migrator does (three clients at once), compares the
# columns with SQLite's schema, then runs "buggy client" transactions that must
# fail at COMMIT with the expected SQLSTATE and constraint, and correct edits that
# must pass. Prints the cost of a 10,000-row shift with and without the triggers.
# Exits non-zero, with a line saying what, on any unexpected outcome.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
migrations="$root/migrations/postgresql"
bin=${PGBIN:-/usr/lib/postgresql/15/bin}
lock=8386092229154796133 # the tabstore migration lock (see 0001_tab_sets.sql)
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
die() { echo "FAIL: $*"; exit 1; }

# The server refuses to run as root: as root, run it (and psql) as postgres.
as_server_user() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

work=$(mktemp -d)
server_pid=
stop() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap stop EXIT
[ "$(id -u)" = 0 ] && chown postgres "$work"

as_server_user "$bin/initdb" -D "$work/data" -U postgres -E UTF8 --no-locale -A trust >"$work/initdb.log" 2>&1 \
    || die "initdb failed: $(tail -n 3 "$work/initdb.log")"
as_server_user "$bin/postgres" -D "$work/data" -c listen_addresses= -c unix_socket_directories="$work" \
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c track_functions=pl >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
    as_server_user "$bin/pg_isready" -q -h "$work" && break
    kill -0 "$server_pid" 2>/dev/null || die "the server did not start: $(tail -n 3 "$work/server.log")"
    sleep 0.1
done
as_server_user "$bin/pg_isready" -q -h "$work" || die "the server did not accept connections in 10 s"

# psql on database $1, reading the script on stdin; ON_ERROR_STOP, verbose errors.
sql() {
    local database=$1; shift
    as_server_user "$bin/psql" -X -q -A -t -h "$work" -U postgres -d "$database" \
        -v ON_ERROR_STOP=1 -v VERBOSITY=verbose "$@"
}

# The migrator's protocol for every step (0001's header): one transaction per step,
# the advisory lock first, then the version (0 without a version table).
# Up to version $2 when given.
migrate() {
    local database=$1 last=${2:-9999} file version
    for file in "$migrations"/[0-9][0-9][0-9][0-9]_*.sql; do
        version=$((10#$(basename "$file" | cut -c1-4)))
        [ "$version" -le "$last" ] || break
        sql "$database" <<EOF || return 1
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT pg_advisory_xact_lock($lock) IS NULL AS ignored \gset
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class WHERE relname = 'tabstore_schema'
               AND relnamespace = current_schema()::regnamespace) AS has_version \gset
\if :has_version
SELECT version FROM tabstore_schema \gset
\else
\set version 0
\endif
SELECT :version < $version AS needed \gset
\if :needed
\i $file
UPDATE tabstore_schema SET version = $version;
\endif
COMMIT;
EOF
    done
}

echo "== migrating (three clients at once)"
sql postgres -c "CREATE DATABASE tabstore" -c "CREATE DATABASE bare" >/dev/null
pids=()
for client in 1 2 3; do migrate tabstore >"$work/migrate$client.log" 2>&1 & pids+=($!); done
for client in 1 2 3; do
    wait "${pids[$((client - 1))]}" || fail "migrating client $client failed: $(grep -m1 ERROR "$work/migrate$client.log")"
done
latest=$(ls "$root"/migrations/postgresql/[0-9][0-9][0-9][0-9]_*.sql | wc -l)
[ "$(sql tabstore -c "SELECT version FROM tabstore_schema")" = "$latest" ] || fail "the version after migrating is not $latest"
[ "$(sql tabstore -c "SELECT count(*) FROM tabstore_schema")" = 1 ] || fail "tabstore_schema does not hold one row"
migrate tabstore >/dev/null 2>&1 || fail "migrating a migrated database again failed"

echo "== columns as SQLite's at version $latest"
sqlite_db="$work/sqlite.db"
cat "$root"/migrations/[0-9][0-9][0-9][0-9]_*.sql | sqlite3 "$sqlite_db" || die "the SQLite migrations did not apply"
for table in tab_set tab closed_tab change name_revision; do
    expected=$(sqlite3 "$sqlite_db" "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('$table') ORDER BY cid)")
    # xact_id (step 10) orders a server's journal across concurrent writers; a file has one writer.
    actual=$(sql tabstore -c "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '$table' AND (table_name, column_name) <> ('change', 'xact_id')")
    [ "$expected" = "$actual" ] || fail "$table has columns ($actual), SQLite has ($expected)"
done

echo "== step 6 converts JSON journal rows as SQLite's does"
legacy_rows="INSERT INTO change (set_name, revision, kind, detail, at) VALUES
    ('a', 1, 'added', '{\"titles\":[\"x\",\"y\"],\"index\":0}', 5),
    ('a', 2, 'removed', '{\"tabs\":[{\"index\":0,\"title\":\"x\",\"selected\":false},{\"index\":1,\"title\":\"y\",\"selected\":true}]}', 6),
    ('a', 3, 'moved', '{\"title\":\"x\",\"from\":0,\"to\":2}', 7),
    ('a', 4, 'renamed', '{\"index\":1,\"from\":\"x\",\"to\":\"z\"}', 8),
    ('a', 5, 'selected', '{\"updates\":[{\"index\":0,\"title\":\"x\",\"selected\":false},{\"index\":2,\"title\":\"q\",\"selected\":true}]}', 9),
    ('a', 6, 'reopened', '{\"index\":1,\"title\":\"x\",\"selected\":true}', 10),
    ('a', 7, 'replaced', '{\"tabCount\":4}', 11),
    ('a', 8, 'set-renamed', '{\"from\":\"a\",\"to\":\"b\"}', 12),
    ('a', 9, 'set-removed', '{}', 13),
    ('a', 10, 'added', 'not json', 14),
    ('a', 11, 'removed', '{\"tabs\":[]}', 15),
    ('a', 12, 'selected', '{\"updates\":{\"index\":1}}', 16);"
journal_columns="id, set_name, revision, kind, at, set_id, tab_index, from_index, to_index, title, new_title, tab_count, selected, titles, indices"
sql postgres -c "CREATE DATABASE legacy" >/dev/null
migrate legacy 5 >/dev/null 2>&1 || die "migrating to version 5 failed"
sql legacy -c "$legacy_rows" >/dev/null || die "the JSON journal rows did not insert"
migrate legacy >/dev/null 2>&1 || die "migrating from version 5 failed"
legacy_sqlite="$work/legacy.db"
{ cat "$root"/migrations/000[1-5]_*.sql; echo "$legacy_rows"; cat "$root"/migrations/0006_*.sql; } | sqlite3 "$legacy_sqlite" \
    || die "the SQLite migrations with JSON journal rows did not apply"
expected=$(sqlite3 -separator '|' "$legacy_sqlite" "SELECT $journal_columns FROM change ORDER BY id" | od -c)
actual=$(sql legacy -c "SELECT $journal_columns FROM change ORDER BY id" | od -c)
[ "$expected" = "$actual" ] && echo "ok   12 journal rows read the same" || fail "step 6 converted the journal unlike SQLite's step 6"

# The fixture: set "a" with tabs x, y, z (y selected, revision 1, journaled), set "b"
# with tab w, set "big" with 10,000 tabs. Ids are fixed to name tabs in the cases.
fixture() {
    sql "$1" <<'EOF'
BEGIN;
INSERT INTO tab_set (id, name, selected_tab_id, revision) VALUES (1, 'a', 2, 1), (2, 'b', 4, 1), (3, 'big', 100001, 1);
INSERT INTO tab (id, set_id, position, title, uuid) VALUES
    (1, 1, 0, 'x', gen_random_uuid()), (2, 1, 1, 'y', gen_random_uuid()), (3, 1, 2, 'z', gen_random_uuid()),
    (4, 2, 0, 'w', gen_random_uuid());
INSERT INTO tab (id, set_id, position, title, uuid)
    SELECT 100000 + i, 3, i - 1, 'tab ' || i, gen_random_uuid() FROM generate_series(1, 10000) AS i;
INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles)
    VALUES ('a', 1, 'added', 0, 1, 0, 'x' || chr(31) || 'y' || chr(31) || 'z'), ('b', 1, 'added', 0, 2, 0, 'w'),
           ('big', 1, 'added', 0, 3, 0, '');
-- New rows take ids above the fixture's.
SELECT setval(pg_get_serial_sequence('tab_set', 'id'), 1000) AS sets, setval(pg_get_serial_sequence('tab', 'id'), 1000000) AS tabs \gset
COMMIT;
EOF
}
fixture tabstore || die "the fixture did not commit"

# must_fail NAME SQLSTATE CONSTRAINT SQL: SQL runs in a transaction without error and
# its COMMIT fails with SQLSTATE naming CONSTRAINT; nothing it did remains.
must_fail() {
    local name=$1 state=$2 constraint=$3 body=$4 output before after
    before=$(sql tabstore -c "SELECT md5(string_agg(t::text, ';' ORDER BY id)) FROM tab t" -c "SELECT md5(string_agg(s::text, ';' ORDER BY id)) FROM tab_set s")
    if ! output=$(printf 'BEGIN;\n%s\n\\set ON_ERROR_STOP 0\nCOMMIT;\n\\echo commit :SQLSTATE\n' "$body" | sql tabstore 2>&1); then
        fail "$name: a statement before COMMIT failed: $(grep -m1 ERROR <<<"$output")"
        return
    fi
    grep -q "^commit $state\$" <<<"$output" || { fail "$name: COMMIT gave SQLSTATE $(grep '^commit' <<<"$output" | cut -c8-), expected $state"; return; }
    grep -q "CONSTRAINT NAME:  $constraint\$" <<<"$output" || { fail "$name: the error does not name constraint $constraint: $(grep -m1 ERROR <<<"$output")"; return; }
    after=$(sql tabstore -c "SELECT md5(string_agg(t::text, ';' ORDER BY id)) FROM tab t" -c "SELECT md5(string_agg(s::text, ';' ORDER BY id)) FROM tab_set s")
    [ "$before" = "$after" ] || { fail "$name: the failed transaction changed stored rows"; return; }
    echo "ok   $name: COMMIT fails, $state $constraint"
}

# must_pass NAME SQL: SQL and its COMMIT succeed.
must_pass() {
    local name=$1 body=$2 output
    if output=$(printf 'BEGIN;\n%s\nCOMMIT;\n' "$body" | sql tabstore 2>&1); then
        echo "ok   $name: commits"
    else
        fail "$name: $(grep -m1 ERROR <<<"$output")"
    fi
}

echo "== buggy clients"
must_fail "two tabs at one position" 23505 tab_position_unique \
    "UPDATE tab SET position = 1 WHERE id = 3; INSERT INTO tab (set_id, position, title) VALUES (1, 3, 'v');"
must_fail "a title twice in a set" 23505 tab_title_unique "UPDATE tab SET title = 'x' WHERE id = 3;"
must_fail "a gap left by a removal" 23514 tab_positions_contiguous "DELETE FROM tab WHERE id = 1;"
must_fail "tabs shifted, base not" 23514 tab_positions_contiguous "UPDATE tab SET position = position + 1 WHERE set_id = 1;"
must_fail "base moved, tabs not" 23514 tab_positions_contiguous "UPDATE tab_set SET base = 5 WHERE id = 1;"
must_fail "a tab moved to another set, its gap left" 23514 tab_positions_contiguous "UPDATE tab SET set_id = 2, position = 1 WHERE id = 1;"
must_fail "no selection in a set with tabs" 23514 tab_set_selection "UPDATE tab_set SET selected_tab_id = NULL WHERE id = 1;"
must_fail "a selection in another set" 23514 tab_set_selection "UPDATE tab_set SET selected_tab_id = 4 WHERE id = 1;"
must_fail "a selection in an emptied set" 23514 tab_set_selection "DELETE FROM tab WHERE id = 4; UPDATE tab_set SET selected_tab_id = 1 WHERE id = 2;"
must_fail "a selection of no tab" 23503 tab_set_selected_tab_fkey "UPDATE tab_set SET selected_tab_id = 999999 WHERE id = 1;"
must_fail "the selected tab removed" 23503 tab_set_selected_tab_fkey "DELETE FROM tab WHERE id = 4;"
must_fail "a revision not journaled" 23514 tab_set_revision_journaled "UPDATE tab_set SET revision = 2 WHERE id = 1;"
must_fail "a journal row, the set's revision not bumped" 23514 tab_set_revision_journaled \
    "INSERT INTO change (set_name, revision, kind, at, set_id, tab_count) VALUES ('a', 2, 'replaced', 0, 1, 3);"
must_fail "the newest journal row deleted" 23514 tab_set_revision_journaled \
    "UPDATE tab_set SET revision = 2 WHERE id = 1; INSERT INTO change (set_name, revision, kind, at, set_id, tab_count) VALUES ('a', 2, 'replaced', 0, 1, 3); SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED; DELETE FROM change WHERE id = (SELECT max(id) FROM change);"
# A check that ran early (SET CONSTRAINTS ... IMMEDIATE) does not excuse a later change.
must_fail "a gap made after an early check" 23514 tab_positions_contiguous \
    "UPDATE tab SET title = 'x2' WHERE id = 1; UPDATE tab SET position = position WHERE id = 1; SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED; DELETE FROM tab WHERE id = 1;"
must_fail "a gap made in a released savepoint" 23514 tab_positions_contiguous \
    "UPDATE tab SET position = position WHERE id = 1; SAVEPOINT s; DELETE FROM tab WHERE id = 1; RELEASE SAVEPOINT s;"

echo "== correct edits"
must_pass "a gap made, then closed in a later statement" \
    "DELETE FROM tab WHERE id = 1; UPDATE tab SET position = position - 1 WHERE set_id = 1;
     UPDATE tab SET position = position + 1 WHERE set_id = 1; INSERT INTO tab (id, set_id, position, title) VALUES (1, 1, 0, 'x');"
must_pass "a gap made in a savepoint rolled back" \
    "SAVEPOINT s; DELETE FROM tab WHERE id = 1; ROLLBACK TO SAVEPOINT s;"
must_pass "move x (index 0) to index 2 of a" \
    "UPDATE tab SET position = position - 1 WHERE set_id = 1 AND position BETWEEN 1 AND 2; UPDATE tab SET position = 2 WHERE id = 1;
     UPDATE tab_set SET revision = 2 WHERE id = 1; INSERT INTO change (set_name, revision, kind, at, set_id, title, from_index, to_index) VALUES ('a', 2, 'moved', 0, 1, 'x', 0, 2);"
must_pass "remove selected y from a, closing the gap from the shorter side" \
    "DELETE FROM tab WHERE id = 2; UPDATE tab SET position = position + 1 WHERE set_id = 1 AND position < 1; UPDATE tab_set SET base = base + 1, selected_tab_id = 1, revision = 3 WHERE id = 1;
     INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles, indices) VALUES ('a', 3, 'removed', 0, 1, 0, 'y', '0');"
must_pass "remove set b (its journal unlinked)" \
    "DELETE FROM tab_set WHERE id = 2; UPDATE change SET set_id = NULL WHERE set_id = 2;
     INSERT INTO change (set_name, revision, kind, at, set_id) VALUES ('b', 2, 'set-removed', 0, NULL);"
must_pass "insert at index 0 of big: 10,000 positions shifted by one in one UPDATE" \
    "UPDATE tab SET position = position + 1 WHERE set_id = 3; INSERT INTO tab (set_id, position, title) VALUES (3, 0, 'first');
     UPDATE tab_set SET revision = 2 WHERE id = 3; INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles) VALUES ('big', 2, 'added', 0, 3, 0, 'first');"
[ "$(sql tabstore -c "SELECT string_agg(title, ',' ORDER BY position) FROM tab WHERE set_id = 1")" = "z,x" ] \
    || fail "set a does not hold z, x after the edits"

echo "== one check per set and transaction"
calls=$(sql tabstore <<'EOF'
BEGIN;
UPDATE tab SET position = position + 1 WHERE set_id = 3;
UPDATE tab_set SET base = base + 1, revision = 3 WHERE id = 3;
INSERT INTO change (set_name, revision, kind, at, set_id, tab_count) VALUES ('big', 3, 'replaced', 0, 3, 10001);
SET CONSTRAINTS ALL IMMEDIATE;
SELECT pg_stat_get_xact_function_calls('tabstore_check_set(bigint)'::regprocedure);
ROLLBACK;
EOF
) || fail "the counted shift failed"
[ "$calls" = 1 ] || fail "a 10,000-row shift with a set update and a journal row ran the set check $calls times, not once"
[ "$calls" = 1 ] && echo "ok   a 10,000-row shift, its set update and journal row: the set is checked once"

echo "== costs (median of 7 alternating runs)"
# The same schema without the constraint triggers (the unique constraints stay).
migrate bare >/dev/null 2>&1 || die "migrating the database without triggers failed"
sql bare -c "DROP TRIGGER tab_inserted_check_set ON tab" -c "DROP TRIGGER tab_deleted_check_set ON tab" \
    -c "DROP TRIGGER tab_updated_check_set ON tab" -c "DROP TRIGGER tab_set_written_check_set ON tab_set" \
    -c "DROP TRIGGER change_inserted_check_set ON change" -c "DROP TRIGGER change_deleted_check_set ON change" \
    -c "DROP TRIGGER change_updated_check_set ON change" >/dev/null
fixture bare || die "the fixture did not commit without triggers"
# compare NAME SQL: the milliseconds from BEGIN to the end of COMMIT of SQL, with the
# triggers and without, median of 7 runs each. The runs alternate and each starts after
# a VACUUM, so both databases pay the same for dead rows and for the machine's load.
compare() {
    local name=$1 body=$2 run database with=() without=() ms
    for run in 1 2 3 4 5 6 7; do
        for database in tabstore bare; do
            sql "$database" -c "VACUUM tab, tab_set, change" || die "VACUUM failed on $database"
            ms=$(printf 'SELECT clock_timestamp() AS t0 \\gset\nBEGIN;\n%s\nCOMMIT;\nSELECT round(extract(epoch FROM clock_timestamp() - :%s::timestamptz) * 1000, 1);\n' "$body" "'t0'" | sql "$database") \
                || die "the timed edit \"$name\" failed on $database"
            if [ "$database" = tabstore ]; then with+=("$ms"); else without+=("$ms"); fi
        done
    done
    echo "$name: with triggers $(printf '%s\n' "${with[@]}" | sort -n | sed -n 4p) ms, without $(printf '%s\n' "${without[@]}" | sort -n | sed -n 4p) ms"
}
shift_sql="UPDATE tab SET position = position + 1 WHERE set_id = 3; UPDATE tab_set SET base = base + 1, revision = revision + 1 WHERE id = 3;
    INSERT INTO change (set_name, revision, kind, at, set_id, tab_count) SELECT 'big', revision, 'replaced', 0, 3, 10000 FROM tab_set WHERE id = 3;"
append_sql="INSERT INTO tab (set_id, position, title) SELECT 3, max(position) + 1, 'tab ' || gen_random_uuid() FROM tab WHERE set_id = 3;
    UPDATE tab_set SET revision = revision + 1 WHERE id = 3;
    INSERT INTO change (set_name, revision, kind, at, set_id, tab_index, titles) SELECT 'big', revision, 'added', 0, 3, 0, 'x' FROM tab_set WHERE id = 3;"
compare "shift 10,000 tabs by one (one UPDATE, base, journal row)" "$shift_sql"
compare "append a tab to a 10,000-tab set (with its journal row)" "$append_sql"

if [ "$failures" -gt 0 ]; then
    echo "FAILED: $failures unexpected outcome(s)"
    exit 1
fi
echo "PASSED"
