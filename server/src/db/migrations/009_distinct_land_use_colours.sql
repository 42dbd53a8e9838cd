-- One colour per land-use code: TMD, SKC, DVH, DYT and DGD were all the same salmon and NTS the river's
-- cyan, so the legend could not tell them apart. DOMAIN.md's colours stay where it gives one (TMD keeps
-- 250,170,160); the others get their own hue. src/features/map/land-use.ts holds the same table.
update land_use_codes set color = '#c89682' where code = 'SKC';
update land_use_codes set color = '#dcb4f0' where code = 'DVH';
update land_use_codes set color = '#ff6464' where code = 'DYT';
update land_use_codes set color = '#b48cd2' where code = 'DGD';
update land_use_codes set color = '#64c8dc' where code = 'NTS';
update land_use_codes set color = '#ffc88c' where code = 'CLN';
update land_use_codes set color = '#e6e6a0' where code = 'HNK';
