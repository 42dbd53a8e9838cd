import { useAtom } from 'jotai'
import { NativeSelect, Paper, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core'
import { draftAtom } from '../atoms.ts'
import { NOTES_MAX, type DraftErrors, type ValuationDraft } from '../form.ts'
import { legalStatuses, type LegalStatus } from '../../../lib/valuation-record.ts'

type TextField = 'area' | 'frontage' | 'alley' | 'floors' | 'notes'

/** Step 2: the parcel's facts, filled in from its record and open to correction. */
export function FactsForm({ errors }: { errors: DraftErrors }) {
  const [draft, setDraft] = useAtom(draftAtom)
  const set = (field: TextField) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value
    setDraft((d): ValuationDraft => ({ ...d, [field]: value }))
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="facts-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="facts-title">
          2. Thông tin thửa đất
        </Title>
        <Text size="sm" c="dimmed">
          Điền sẵn từ dữ liệu thửa; sửa lại nếu thực tế khác. Để trống ô nào thì dùng dữ liệu của thửa.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Diện tích (m²)"
            inputMode="decimal"
            value={draft.area}
            onChange={set('area')}
            error={errors.area}
            size="md"
            data-testid="field-area"
          />
          <TextInput
            label="Chiều ngang mặt tiền (m)"
            inputMode="decimal"
            value={draft.frontage}
            onChange={set('frontage')}
            error={errors.frontage}
            size="md"
          />
          <Stack gap={6}>
            <TextInput
              label="Độ rộng hẻm (m)"
              inputMode="decimal"
              value={draft.frontsStreet ? '' : draft.alley}
              placeholder={draft.frontsStreet ? 'Mặt tiền đường' : undefined}
              disabled={draft.frontsStreet}
              onChange={set('alley')}
              error={errors.alley}
              size="md"
            />
            <Switch
              label="Mặt tiền đường"
              checked={draft.frontsStreet}
              onChange={(e) => {
                const frontsStreet = e.currentTarget.checked
                setDraft((d) => ({ ...d, frontsStreet }))
              }}
            />
          </Stack>
          <TextInput
            label="Số tầng"
            description="0 nếu là đất trống"
            inputMode="numeric"
            value={draft.floors}
            onChange={set('floors')}
            error={errors.floors}
            size="md"
          />
          <NativeSelect
            label="Pháp lý"
            value={draft.legal}
            onChange={(e) => {
              const legal = e.currentTarget.value as LegalStatus
              setDraft((d) => ({ ...d, legal }))
            }}
            data={Object.entries(legalStatuses).map(([value, label]) => ({ value, label }))}
            error={errors.legal}
            size="md"
          />
        </SimpleGrid>
        <Textarea
          label="Ghi chú"
          placeholder="VD: nhà nở hậu, hẻm xe hơi, gần chợ…"
          value={draft.notes}
          onChange={set('notes')}
          error={errors.notes}
          description={`${draft.notes.length}/${NOTES_MAX} ký tự`}
          autosize
          minRows={2}
          maxRows={6}
          size="md"
        />
      </Stack>
    </Paper>
  )
}
