-- Mixed use as cadastral files write it (`ODT+CLN`, no area for each part): every code is kept with
-- its area unknown (null), the parcel keeps its own area. One code without an area still gets the
-- parcel's area less the others' at import.
alter table parcel_land_use alter column area_m2 drop not null;
