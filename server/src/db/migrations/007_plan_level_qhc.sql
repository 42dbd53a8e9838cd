-- The general plan (QHC) joins the detailed and zoning plans: CONTRACT.md orders QHCT 1/500 over
-- QHPK 1/2000 over QHC (core/planning/plan-levels.ts), and provinces publish QHC zones on their own.
alter table plans drop constraint plans_level_check;
alter table plans add constraint plans_level_check check (level in ('QHCT 1/500', 'QHPK 1/2000', 'QHC'));
