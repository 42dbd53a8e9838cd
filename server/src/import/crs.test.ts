import { execFileSync, spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { knownMeridians } from '#core/geo/provinces.ts'
import { vn2000Proj } from '#core/geo/vn2000.ts'
import { crsFromPrj, formatCrs, parseCrs, projectorFor, projString, withEsriTowgs84 } from './crs.ts'

/** Ground distance in metres between two nearby WGS84 points. */
function metres(a: [number, number], b: [number, number]): number {
  const lat = (a[1] * Math.PI) / 180
  return Math.hypot((a[0] - b[0]) * 111_320 * Math.cos(lat), (a[1] - b[1]) * 110_574)
}

const vn2000Prj105_45 =
  'PROJCS["VN_2000_TM3_105_45",GEOGCS["GCS_VN_2000",DATUM["D_Vietnam_2000",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],' +
  'PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",105.75],PARAMETER["Scale_Factor",0.9999],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]'

describe('parseCrs', () => {
  it('reads EPSG:4326 and VN-2000 meridians in decimal or degree-minute form', () => {
    expect(parseCrs('EPSG:4326')).toEqual({ kind: 'wgs84' })
    expect(parseCrs('vn2000:105.75')).toEqual({ kind: 'vn2000', meridian: 105.75 })
    expect(parseCrs('VN2000:105°45′')).toEqual({ kind: 'vn2000', meridian: 105.75 })
    expect(parseCrs('vn2000:107d45')).toEqual({ kind: 'vn2000', meridian: 107.75 })
    expect(parseCrs('vn2000:105')).toEqual({ kind: 'vn2000', meridian: 105 })
  })

  it('reads the VN-2000 TM-3 zones EPSG:9205–9218 that QGIS offers, each on the meridian PROJ gives it, and OGC names of a code', () => {
    // projinfo EPSG:9205 … EPSG:9218: lon_0 of each zone, k 0.9999, false easting 500 000.
    const meridians = [103, 104, 104.5, 104.75, 105.5, 105.75, 106, 106.25, 106.5, 107, 107.25, 107.5, 108.25, 108.5]
    meridians.forEach((meridian, i) => expect(parseCrs(`EPSG:${9205 + i}`)).toEqual({ kind: 'vn2000', meridian }))
    expect(parseCrs('EPSG:9219')).toBeNull()
    expect(parseCrs('urn:ogc:def:crs:EPSG::9210')).toEqual({ kind: 'vn2000', meridian: 105.75 })
    expect(parseCrs('urn:ogc:def:crs:EPSG:6.3:3405')).toEqual({ kind: 'vn2000', meridian: 105, scale: 0.9996 })
    expect(parseCrs('http://www.opengis.net/def/crs/EPSG/0/5899')).toEqual({ kind: 'vn2000', meridian: 107.75 })
    expect(parseCrs('urn:ogc:def:crs:OGC:1.3:CRS84')).toEqual({ kind: 'wgs84' })
  })

  it('refuses unknown systems and meridians outside Viet Nam', () => {
    expect(parseCrs('EPSG:3857')).toBeNull()
    expect(parseCrs('vn2000:')).toBeNull()
    expect(parseCrs('vn2000:45')).toBeNull()
    expect(parseCrs('vn2000:abc')).toBeNull()
  })
})

describe('crsFromPrj', () => {
  it('recognises a VN-2000 TM-3 .prj and reads its central meridian', () => {
    expect(crsFromPrj(vn2000Prj105_45)).toEqual({ kind: 'vn2000', meridian: 105.75 })
  })

  it('recognises geographic WGS84', () => {
    expect(
      crsFromPrj(
        'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]',
      ),
    ).toEqual({ kind: 'wgs84' })
  })

  it('recognises VN-2000 / UTM (k 0.9996) and reads --crs EPSG codes of the VN-2000 grids', () => {
    expect(crsFromPrj(vn2000Prj105_45.replace('0.9999', '0.9996').replace('105.75', '105.0'))).toEqual({
      kind: 'vn2000',
      meridian: 105,
      scale: 0.9996,
    })
    expect(parseCrs('EPSG:3405')).toEqual({ kind: 'vn2000', meridian: 105, scale: 0.9996 })
    expect(parseCrs('epsg:5899')).toEqual({ kind: 'vn2000', meridian: 107.75 })
    expect(parseCrs('EPSG:3857')).toBeNull()
    expect(formatCrs({ kind: 'vn2000', meridian: 111, scale: 0.9996 })).toBe('EPSG:3406')
  })

  it('keeps a declared 3-parameter shift, and takes the official 7 parameters written with either rotation sign as the official shift', () => {
    const withShift = (shift: string) =>
      vn2000Prj105_45.replace(
        'SPHEROID["WGS_1984",6378137.0,298.257223563]',
        `SPHEROID["WGS_1984",6378137.0,298.257223563],TOWGS84[${shift}]`,
      )
    expect(crsFromPrj(withShift('-191.90441,-39.30318,-111.45033,0,0,0,0'))).toEqual({
      kind: 'vn2000',
      meridian: 105.75,
      towgs84: [-191.90441, -39.30318, -111.45033],
    })
    expect(
      crsFromPrj(withShift('-191.90441429,-39.30318279,-111.45032835,0.00928836,-0.01975479,0.00427372,0.252906278')),
    ).toEqual({ kind: 'vn2000', meridian: 105.75 })
    expect(
      crsFromPrj(withShift('-191.90441429,-39.30318279,-111.45032835,-0.00928836,0.01975479,-0.00427372,0.252906278')),
    ).toEqual({ kind: 'vn2000', meridian: 105.75 })
  })

  it('reads the datum shift GDAL writes into an ESRI datum name, and leaves a name it cannot split as it is', () => {
    // As GDAL writes it for a CRS given as a PROJ string: nothing names VN-2000 but the shift.
    const mangled = (shift: string) =>
      vn2000Prj105_45
        .replace(/"VN_2000_TM3_105_45"|"GCS_VN_2000"/g, '"unknown"')
        .replace(/DATUM\["[^"]*"/, `DATUM["D_Unknown_based_on_WGS_84_ellipsoid_using_towgs84_${shift}"`)
    expect(
      crsFromPrj(mangled('-191_90441429_-39_30318279_-111_45032835_0_00928836_-0_01975479_0_00427372_0_252906278')),
    ).toEqual({ kind: 'vn2000', meridian: 105.75 })
    expect(crsFromPrj(mangled('-192_873_-39_382_-111_202'))).toEqual({
      kind: 'vn2000',
      meridian: 105.75,
      towgs84: [-192.873, -39.382, -111.202],
    })
    expect(withEsriTowgs84(mangled('-192_873_-39_382_-111'))).toBe(mangled('-192_873_-39_382_-111'))
  })

  it('does not guess for other scale factors or other projections', () => {
    expect(crsFromPrj(vn2000Prj105_45.replace('0.9999', '1.0'))).toBeNull()
    expect(
      crsFromPrj(
        'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984"]],PROJECTION["Mercator_Auxiliary_Sphere"]]',
      ),
    ).toBeNull()
  })
})

describe('projectorFor VN-2000', () => {
  it('puts the Hoàn Kiếm check point of DOMAIN.md within 1 cm, reading GIS order (easting, northing)', () => {
    const project = projectorFor({ kind: 'vn2000', meridian: 105 })
    expect(metres(project(588591.944, 2326345.312), [105.8542, 21.0285])).toBeLessThan(0.01)
  })

  it('matches a point computed with PROJ for TP.HCM (meridian 105°45′)', () => {
    // cs2cs (PROJ 9.1) on E 603000, N 1191000 with the DOMAIN.md string.
    const project = projectorFor({ kind: 'vn2000', meridian: 105.75 })
    expect(metres(project(603000, 1191000), [106.6935840935, 10.7684036578])).toBeLessThan(0.01)
  })

  const hasCs2cs = spawnSync('cs2cs', [], { stdio: 'ignore' }).error === undefined
  it.skipIf(!hasCs2cs)(
    hasCs2cs
      ? 'agrees with cs2cs within 1 cm on sample points of every provincial meridian'
      : 'agrees with cs2cs within 1 cm — SKIPPED: cs2cs is not installed (apt-get install proj-bin)',
    () => {
      const samples: [number, number][] = []
      for (const e of [420_000, 500_000, 588_591.944, 640_000])
        for (const n of [960_000, 1_191_000, 1_800_000, 2_326_345.312]) samples.push([e, n])
      for (const meridian of knownMeridians) {
        const out = execFileSync(
          'cs2cs',
          ['-f', '%.10f', ...vn2000Proj(meridian).split(' '), '+to', '+proj=longlat', '+datum=WGS84', '+no_defs'],
          {
            input: samples.map(([e, n]) => `${e} ${n}`).join('\n') + '\n',
            encoding: 'utf8',
          },
        )
        const lines = out.trim().split('\n')
        expect(lines).toHaveLength(samples.length)
        const project = projectorFor({ kind: 'vn2000', meridian })
        lines.forEach((line, i) => {
          const [lng, lat] = line.trim().split(/\s+/).map(Number) as [number, number]
          const [e, n] = samples[i]!
          expect(metres(project(e, n), [lng, lat]), `meridian ${meridian}, E ${e} N ${n}`).toBeLessThan(0.01)
        })
      }
    },
  )

  it.skipIf(!hasCs2cs)(
    hasCs2cs
      ? 'agrees with cs2cs within 1 cm on VN-2000 / UTM 48N and 49N and on a 3-parameter shift'
      : 'agrees with cs2cs on the VN-2000 variants — SKIPPED: cs2cs is not installed (apt-get install proj-bin)',
    () => {
      const variants = [
        { kind: 'vn2000', meridian: 105, scale: 0.9996 },
        { kind: 'vn2000', meridian: 111, scale: 0.9996 },
        { kind: 'vn2000', meridian: 105.75, towgs84: [-191.90441429, -39.30318279, -111.45032835] },
      ] as const
      const samples: [number, number][] = [
        [420_000, 1_191_000],
        [588_591.944, 2_326_345.312],
        [640_000, 1_800_000],
      ]
      for (const crs of variants) {
        const out = execFileSync(
          'cs2cs',
          ['-f', '%.10f', ...projString(crs).split(' '), '+to', '+proj=longlat', '+datum=WGS84', '+no_defs'],
          {
            input: samples.map(([e, n]) => `${e} ${n}`).join('\n') + '\n',
            encoding: 'utf8',
          },
        )
        const project = projectorFor(crs)
        out
          .trim()
          .split('\n')
          .forEach((line, i) => {
            const [lng, lat] = line.trim().split(/\s+/).map(Number) as [number, number]
            const [e, n] = samples[i]!
            expect(metres(project(e, n), [lng, lat]), `${formatCrs(crs)}, E ${e} N ${n}`).toBeLessThan(0.01)
          })
      }
    },
  )
})
