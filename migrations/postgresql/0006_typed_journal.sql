-- The journal in typed columns instead of a JSON `detail` (as
-- migrations/0006_typed_journal.sql, which lists the columns each kind fills).
-- `titles` holds titles joined by U+001F, `indices` indices joined by ','.
-- SQLite copies into a new table; here the columns are added and `detail` dropped,
-- which keeps the ids, the identity and the column order SQLite ends with.
ALTER TABLE change
    ADD COLUMN tab_index  bigint,
    ADD COLUMN from_index bigint,
    ADD COLUMN to_index   bigint,
    ADD COLUMN title      text COLLATE "C",
    ADD COLUMN new_title  text COLLATE "C",
    ADD COLUMN tab_count  bigint,
    ADD COLUMN selected   integer,
    ADD COLUMN titles     text COLLATE "C",
    ADD COLUMN indices    text;

-- This step's helpers, dropped at its end. The JSON of a detail, NULL when it is not
-- JSON (PostgreSQL 15 has no IS JSON); a JSON value as SQLite's json_extract stores
-- it in an INTEGER column (true/false as 1/0), or as text.
CREATE FUNCTION tabstore_0006_json(detail text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN detail::jsonb;
EXCEPTION WHEN data_exception THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION tabstore_0006_int(value jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE
    RETURN CASE jsonb_typeof(value)
        WHEN 'number' THEN trunc((value #>> '{}')::numeric)::bigint
        WHEN 'boolean' THEN CASE WHEN value = 'true'::jsonb THEN 1 ELSE 0 END
    END;
CREATE FUNCTION tabstore_0006_elements(value jsonb) RETURNS TABLE (element jsonb, ordinal bigint)
    LANGUAGE sql IMMUTABLE AS $$
    SELECT e, n FROM jsonb_array_elements(CASE WHEN jsonb_typeof(value) = 'array' THEN value END) WITH ORDINALITY AS a(e, n)
$$;

-- Every row with a JSON detail, converted; where a detail lacks what its kind needs,
-- the column stays NULL and the reader skips the row. A row whose detail is not JSON
-- keeps its place and kind, nothing else.
UPDATE change SET
    tab_index = CASE
        WHEN kind IN ('added', 'renamed', 'reselected', 'reopened') THEN tabstore_0006_int(d -> 'index')
        WHEN kind = 'removed' THEN (SELECT tabstore_0006_int(element -> 'index') FROM tabstore_0006_elements(d -> 'tabs')
                                    WHERE tabstore_0006_int(element -> 'selected') = 1 ORDER BY ordinal LIMIT 1)
    END,
    from_index = CASE
        WHEN kind = 'moved' THEN tabstore_0006_int(d -> 'from')
        WHEN kind = 'selected' THEN (SELECT tabstore_0006_int(element -> 'index') FROM tabstore_0006_elements(d -> 'updates')
                                     WHERE tabstore_0006_int(element -> 'selected') = 0 ORDER BY ordinal LIMIT 1)
    END,
    to_index = CASE
        WHEN kind = 'moved' THEN tabstore_0006_int(d -> 'to')
        WHEN kind = 'selected' THEN (SELECT tabstore_0006_int(element -> 'index') FROM tabstore_0006_elements(d -> 'updates')
                                     WHERE tabstore_0006_int(element -> 'selected') = 1 ORDER BY ordinal LIMIT 1)
    END,
    title = CASE
        WHEN kind IN ('moved', 'reselected', 'reopened') THEN d ->> 'title'
        WHEN kind IN ('renamed', 'set-renamed') THEN d ->> 'from'
        WHEN kind = 'selected' THEN (SELECT element ->> 'title' FROM tabstore_0006_elements(d -> 'updates')
                                     WHERE tabstore_0006_int(element -> 'selected') = 0 ORDER BY ordinal LIMIT 1)
    END,
    new_title = CASE
        WHEN kind IN ('renamed', 'set-renamed') THEN d ->> 'to'
        WHEN kind = 'selected' THEN (SELECT element ->> 'title' FROM tabstore_0006_elements(d -> 'updates')
                                     WHERE tabstore_0006_int(element -> 'selected') = 1 ORDER BY ordinal LIMIT 1)
    END,
    tab_count = CASE WHEN kind = 'replaced' THEN tabstore_0006_int(d -> 'tabCount') END,
    selected = CASE WHEN kind IN ('reselected', 'reopened') THEN tabstore_0006_int(d -> 'selected') END,
    titles = CASE
        WHEN kind = 'added' AND jsonb_typeof(d -> 'titles') = 'array' THEN
            (SELECT coalesce(string_agg(element #>> '{}', chr(31) ORDER BY ordinal), '') FROM tabstore_0006_elements(d -> 'titles'))
        WHEN kind = 'removed' AND jsonb_typeof(d -> 'tabs') = 'array' THEN
            (SELECT coalesce(string_agg(element ->> 'title', chr(31) ORDER BY ordinal), '') FROM tabstore_0006_elements(d -> 'tabs'))
    END,
    indices = CASE
        WHEN kind = 'removed' AND jsonb_typeof(d -> 'tabs') = 'array' THEN
            (SELECT coalesce(string_agg(tabstore_0006_int(element -> 'index')::text, ',' ORDER BY ordinal), '') FROM tabstore_0006_elements(d -> 'tabs'))
    END
FROM (SELECT id AS change_id, tabstore_0006_json(detail) AS d FROM change) AS parsed
WHERE parsed.change_id = change.id AND parsed.d IS NOT NULL;

ALTER TABLE change DROP COLUMN detail;
DROP FUNCTION tabstore_0006_json(text);
DROP FUNCTION tabstore_0006_int(jsonb);
DROP FUNCTION tabstore_0006_elements(jsonb);
