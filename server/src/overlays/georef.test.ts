import { describe, expect, it } from 'vitest'
import { parseOverlayCrs } from './georef.ts'

describe('overlay CRS from the command line', () => {
  it('keeps the UTM scale of VN-2000 / UTM codes and names them by their code', () => {
    expect(parseOverlayCrs('EPSG:3405')).toMatchObject({
      kind: 'vn2000',
      label: 'EPSG:3405',
      srs: expect.stringContaining('+lon_0=105 +k=0.9996 '),
    })
    expect(parseOverlayCrs('vn2000:107.75')).toMatchObject({
      kind: 'vn2000',
      label: 'vn2000:107.75',
      srs: expect.stringContaining('+lon_0=107.75 +k=0.9999 '),
    })
    expect(parseOverlayCrs('EPSG:32648')).toEqual({ kind: 'epsg', srs: 'EPSG:32648', label: 'EPSG:32648' })
  })
})
