import { describe, expect, it } from 'vitest'
import { orderZones, parsePlanLevel, planLevelRank, planLevelRankSql, replacedBy } from './plan-levels.ts'

const zone = (id: string, plan_level: string, approved_at: string, decision_no = `${id}/QĐ`) => ({
  id,
  plan_name: `Đồ án ${decision_no}`,
  plan_level,
  approved_at,
  decision_no,
})

describe('plan levels', () => {
  it('ranks the detailed plan over the zoning plan over the general plan, unknown levels last', () => {
    expect(['QHC', 'bogus', 'QHPK 1/2000', 'QHCT 1/500'].sort((a, b) => planLevelRank(a) - planLevelRank(b))).toEqual([
      'QHCT 1/500',
      'QHPK 1/2000',
      'QHC',
      'bogus',
    ])
  })

  it('reads the levels as files write them', () => {
    expect(parsePlanLevel('Quy hoạch chi tiết tỷ lệ 1/500')).toBe('QHCT 1/500')
    expect(parsePlanLevel('qhct')).toBe('QHCT 1/500')
    expect(parsePlanLevel('QHPK 1/2.000')).toBe('QHPK 1/2000')
    expect(parsePlanLevel('Quy hoạch phân khu')).toBe('QHPK 1/2000')
    expect(parsePlanLevel('QHC')).toBe('QHC')
    expect(parsePlanLevel('Quy hoạch chung tỷ lệ 1/10.000')).toBe('QHC')
    expect(parsePlanLevel('1/5000')).toBe('QHC')
    expect(parsePlanLevel('bản đồ địa chính')).toBeNull()
  })

  it('orders zones governing first, then by newest approval, and flags only the governing plan', () => {
    const ordered = orderZones([
      zone('1', 'QHC', '2025-01-01'),
      zone('2', 'QHPK 1/2000', '2019-01-01'),
      zone('3', 'QHPK 1/2000', '2023-01-01'),
      zone('4', 'QHPK 1/2000', '2023-01-01', '3/QĐ'),
    ])
    expect(ordered.map((z) => [z.id, z.governing])).toEqual([
      ['3', true],
      ['4', true],
      ['2', false],
      ['1', false],
    ])
  })

  it('has no governing zone when there is no zone', () => {
    expect(orderZones([])).toEqual([])
  })

  it('gives SQL the same ranks', () => {
    expect(planLevelRankSql('p.level')).toBe(
      "case p.level when 'QHCT 1/500' then 0 when 'QHPK 1/2000' then 1 when 'QHC' then 2 else 3 end",
    )
  })

  it('marks each older plan of a level as replaced by the newest of that level, whatever the order given', () => {
    const versions = replacedBy([
      zone('old', 'QHPK 1/2000', '2017-06-12'),
      zone('qhc', 'QHC', '2016-01-01'),
      zone('new', 'QHPK 1/2000', '2023-09-15'),
      zone('mid', 'QHPK 1/2000', '2020-01-01'),
    ])
    expect(versions.map((v) => [v.id, v.replaced_by?.decision_no ?? null])).toEqual([
      ['old', 'new/QĐ'],
      ['qhc', null],
      ['new', null],
      ['mid', 'new/QĐ'],
    ])
    expect(versions[0]?.replaced_by).toEqual({ decision_no: 'new/QĐ', approved_at: '2023-09-15' })
  })

  it('replaces nothing among plans approved the same day, nor a plan alone at its level', () => {
    expect(
      replacedBy([zone('a', 'QHCT 1/500', '2024-01-01'), zone('b', 'QHCT 1/500', '2024-01-01', '9/QĐ')]).map(
        (v) => v.replaced_by,
      ),
    ).toEqual([null, null])
  })
})
