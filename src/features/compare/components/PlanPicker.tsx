import { useId, useState } from 'react'
import { Button, Group, NativeSelect, Text } from '@mantine/core'
import type { PlanVersion } from '#core/contract/plans.ts'
import { planDescription, planOptionLabel } from '../compare.ts'

type Props = {
  plans: PlanVersion[]
  from: string | null
  to: string | null
  onChoose: (from: string, to: string) => void
}

// Each select takes a whole row on a phone (two side by side from about 600 px); what a select cannot
// show of its plan, the line under it does.
const selectWidth = { flex: '1 1 17rem', minWidth: 0 }
const described = ['label', 'input', 'description', 'error'] as ('label' | 'input' | 'description' | 'error')[]

/** The two plans to compare, from every plan with zones in the place; "So sánh" asks again with them. */
export function PlanPicker({ plans, from, to, onChoose }: Props) {
  const id = useId()
  // The older approval first when nothing was chosen yet: "from" is the plan the change starts from.
  const byDate = [...plans].sort((a, b) => a.approved_at.localeCompare(b.approved_at))
  const [a, setA] = useState(from ?? byDate[0]?.id ?? '')
  const [b, setB] = useState(to ?? byDate[byDate.length - 1]?.id ?? '')
  const options = plans.map((p) => ({ value: p.id, label: planOptionLabel(p) }))
  const full = (id: string) => {
    const p = plans.find((x) => x.id === id)
    return p ? planDescription(p) : undefined
  }
  const same = a === b
  return (
    <form
      className="qh-compare-picker"
      aria-describedby={`${id}-hint`}
      onSubmit={(e) => {
        e.preventDefault()
        if (!same) onChoose(a, b)
      }}
    >
      <Group align="end" gap="sm" wrap="wrap">
        <NativeSelect
          label="Đồ án cũ"
          data={options}
          value={a}
          onChange={(e) => setA(e.currentTarget.value)}
          data-testid="compare-from"
          style={selectWidth}
          description={full(a)}
          inputWrapperOrder={described}
        />
        <NativeSelect
          label="Đồ án mới"
          data={options}
          value={b}
          onChange={(e) => setB(e.currentTarget.value)}
          data-testid="compare-to"
          style={selectWidth}
          description={full(b)}
          inputWrapperOrder={described}
          error={same ? 'Hãy chọn hai đồ án khác nhau.' : undefined}
        />
        <Button type="submit" disabled={same || (a === from && b === to)}>
          So sánh
        </Button>
      </Group>
      <Text id={`${id}-hint`} size="xs" c="dimmed" mt={4}>
        Có thể so sánh hai phiên bản của cùng một cấp quy hoạch, hoặc hai cấp khác nhau (ví dụ phân khu và chi tiết).
      </Text>
    </form>
  )
}
