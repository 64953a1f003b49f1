-- A set's tabs hold the positions base, base + 1, ... base + count - 1 (as
-- migrations/0004_position_base.sql). Existing sets start at position 0.
ALTER TABLE tab_set ADD COLUMN base bigint NOT NULL DEFAULT 0;

-- The contiguity check now counts from the base (the triggers of step 1 call it; a
-- change of base is an UPDATE of tab_set, which queues the set's check).
CREATE OR REPLACE FUNCTION tabstore_check_positions(checked tab_set) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    tab_count bigint;
    first_position bigint;
    last_position bigint;
BEGIN
    SELECT count(*), min(position), max(position) INTO tab_count, first_position, last_position
        FROM tab WHERE set_id = checked.id;
    IF tab_count > 0 AND (first_position <> checked.base OR last_position <> checked.base + tab_count - 1) THEN
        RAISE EXCEPTION 'tab set "%" violates constraint "tab_positions_contiguous"', checked.name
            USING ERRCODE = 'check_violation', CONSTRAINT = 'tab_positions_contiguous', TABLE = 'tab',
                  DETAIL = format('Its %s tabs hold positions %s to %s; with base %s they must hold %s to %s.',
                                  tab_count, first_position, last_position, checked.base,
                                  checked.base, checked.base + tab_count - 1);
    END IF;
END
$$;
