-- A geometry as an answer carries it: as stored when it has at most max_points vertices, otherwise
-- simplified (first by about a pixel of a 2,048-pixel view of the whole shape, then coarser, four times
-- each step) until it has that few, and its bounding box as a last resort. So no stored shape, however
-- finely traced, makes an answer heavier than a screen can show.
create function qh_answer_geometry(g geometry, max_points int) returns geometry
language plpgsql immutable strict parallel safe as $$
declare
  tolerance float8 := greatest(ST_XMax(g) - ST_XMin(g), ST_YMax(g) - ST_YMin(g)) / 2048;
  simpler geometry;
begin
  if ST_NPoints(g) <= max_points then
    return g;
  end if;
  for step in 1..5 loop
    simpler := ST_SimplifyPreserveTopology(g, tolerance);
    if ST_NPoints(simpler) <= max_points then
      return simpler;
    end if;
    tolerance := tolerance * 4;
  end loop;
  return ST_Envelope(g);
end $$;
