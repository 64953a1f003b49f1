-- A write that trims the journal deletes the oldest rows of any set, and its COMMIT checks
-- the sets it trimmed. Since step 10 the writer of such a set may be running at that
-- moment: a check that read its row before that writer's COMMIT and its journal after
-- would find them disagreeing. So a set is checked under a shared hold of its name's
-- write lock (the key the backend's writes take), by name as read and then read again,
-- since a rename under way may move it. When its writer holds that lock, the check is left
-- to that writer's own COMMIT: a trim deletes only a prefix of ids, which leaves a set's
-- newest journal row, its positions and its selection as they were.
CREATE OR REPLACE FUNCTION tabstore_check_set(set_id bigint) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    checked tab_set;
    locked text;
BEGIN
    -- Due no more: a later change in this transaction queues a new check.
    PERFORM set_config('tabstore.sets_to_check',
                       replace(coalesce(current_setting('tabstore.sets_to_check', true), ''), ',' || set_id || ',', ','),
                       true);
    FOR attempt IN 1..3 LOOP
        SELECT * INTO checked FROM tab_set WHERE id = set_id;
        IF NOT FOUND THEN
            RETURN; -- removed: its tabs went with it, its journal rows are history
        END IF;
        IF locked IS NOT DISTINCT FROM checked.name THEN
            PERFORM tabstore_check_positions(checked);
            PERFORM tabstore_check_selection(checked);
            PERFORM tabstore_check_revision(checked);
            RETURN;
        END IF;
        IF NOT pg_catalog.pg_try_advisory_xact_lock_shared(pg_catalog.hashtext(current_schema()),
                                                           pg_catalog.hashtext(checked.name)) THEN
            RETURN; -- its writer holds the lock, and its COMMIT checks it
        END IF;
        locked := checked.name;
    END LOOP;
    -- Renamed under each hold: every rename's writer checks it at its COMMIT.
END
$$;
