-- price_row_at answers at most one row (the row of the price table a place is valued by), but a function
-- returning a table is planned as 1,000 rows unless it says otherwise. Joined to price_rows on that row's
-- id, the plan then read every price row and hashed them rather than fetching the one by its key: nothing
-- on the demo's 56 rows, 13,064 rows (429 pages) read twice per valuation at 5 million parcels
-- (docs/performance.md, round 6).
alter function price_row_at(geometry, bigint, text, text, date) rows 1;
