-- The counterpart of migrations/0008_application_id.sql, which marks a SQLite file as
-- tabstore's: here the version table already tells tabstore's schema apart, and the
-- tables say whose they are to anyone reading the catalog (psql's \dt+, pg_dump).
COMMENT ON TABLE tabstore_schema IS 'tabstore: the schema version of the tables below (migrations/postgresql)';
COMMENT ON TABLE tab_set IS 'tabstore: named tab sets and their selected tab';
COMMENT ON TABLE tab IS 'tabstore: the ordered tabs of each set';
