-- Search narrowed by the ward on screen (server/src/geo/search.ts): a ward's streets by equality, so
-- the candidates to rank stay a ward's few hundred however many wards the data holds.
create index streets_ward on streets (province, ward);
