import { useEffect, useState, type FormEvent } from 'react'
import { useAtomValue } from 'jotai'
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconMap2, IconMapPin, IconSearch } from '@tabler/icons-react'
import type { ParcelRef, SearchResult } from '#core/contract/lookups.ts'
import { draftAtom } from '../atoms.ts'
import { choosePlace, parcelLabel, placeOfRef, sheetParcelOf, type ValuationDeps } from '../flow.ts'

type Mode = 'address' | 'sheet' | 'map'

function ParcelChoices({ parcels, onPick }: { parcels: ParcelRef[]; onPick: (p: ParcelRef) => void }) {
  return (
    <Stack gap={4} role="list" aria-label="Các thửa tìm được">
      {parcels.map((p) => (
        <UnstyledButton key={p.id} className="pick-row" role="listitem" onClick={() => onPick(p)}>
          <Text fw={600} size="sm">
            {parcelLabel(p)}
          </Text>
          <Text size="xs" c="dimmed">
            {[p.ward, p.district, p.province].filter(Boolean).join(', ')}
          </Text>
        </UnstyledButton>
      ))}
    </Stack>
  )
}

/** The parcel a search hit names: by its id, else the one nearest the hit's point. */
function refOfHit(refs: ParcelRef[], hit: SearchResult): ParcelRef | undefined {
  const away = (r: ParcelRef) => (r.lat - hit.lat) ** 2 + (r.lng - hit.lng) ** 2
  return refs.find((r) => r.id === hit.id) ?? [...refs].sort((a, b) => away(a) - away(b))[0]
}

function AddressSearch({ deps }: { deps: ValuationDeps }) {
  const [q, setQ] = useState('')
  const [hits, setHits] = useState<SearchResult[]>([])
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<{ text: string; hit?: SearchResult } | null>(null)

  useEffect(() => {
    const query = q.trim()
    if (query.length < 2) {
      setHits([])
      setBusy(false)
      return
    }
    const ctrl = new AbortController()
    // Typing pauses before asking, so a word typed quickly is one request, not five.
    const timer = setTimeout(async () => {
      setBusy(true)
      const res = await deps.api.search(query, ctrl.signal)
      if (ctrl.signal.aborted) return
      setBusy(false)
      if (res.ok) {
        setHits(res.data)
        setNote(
          res.data.length === 0
            ? { text: 'Không tìm thấy địa chỉ nào. Thử tên đường không dấu, hoặc "tờ 12 thửa 34".' }
            : null,
        )
      } else setNote({ text: res.message })
    }, 300)
    return () => {
      clearTimeout(timer)
      ctrl.abort()
    }
  }, [q, deps.api])

  async function pick(hit: SearchResult) {
    const ref = sheetParcelOf(hit)
    if ((hit.kind !== 'address' && hit.kind !== 'parcel') || !ref) {
      return setNote({
        text: `"${hit.label}" là ${hit.kind === 'street' ? 'một tuyến đường' : 'một khu vực'}. Hãy gõ cả số nhà, hoặc chạm vào thửa trên bản đồ.`,
        hit,
      })
    }
    const res = await deps.api.parcels(ref)
    if (!res.ok) return setNote({ text: res.message })
    const found = refOfHit(res.data, hit)
    if (!found) return setNote({ text: 'Không đọc được thông tin thửa này, vui lòng thử lại.' })
    choosePlace(deps.store, placeOfRef(found))
  }

  return (
    <Stack gap="xs">
      <TextInput
        label="Địa chỉ, tên đường hoặc số tờ/thửa"
        placeholder="VD: 24 Đinh Tiên Hoàng, tờ 1 thửa 5"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        leftSection={<IconSearch size={18} aria-hidden />}
        rightSection={busy ? <Loader size="xs" aria-label="Đang tìm" /> : null}
        size="md"
        autoComplete="off"
        data-testid="address-search"
      />
      {note ? (
        <Alert color="yellow" variant="light" role="status">
          <Stack gap={6}>
            <Text size="sm">{note.text}</Text>
            {note.hit ? (
              <Group>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconMap2 size={16} aria-hidden />}
                  renderRoot={(props) => (
                    <Link to="/demo" search={{ lat: note.hit!.lat, lng: note.hit!.lng, z: 18 }} {...props} />
                  )}
                >
                  Mở bản đồ tại đây
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Alert>
      ) : null}
      {hits.length > 0 ? (
        <Stack gap={4} role="list" aria-label="Kết quả tìm kiếm">
          {hits.map((h) => (
            <UnstyledButton key={`${h.kind}:${h.id}`} className="pick-row" role="listitem" onClick={() => void pick(h)}>
              <Text fw={600} size="sm">
                {h.label}
              </Text>
              <Text size="xs" c="dimmed">
                {h.detail}
              </Text>
            </UnstyledButton>
          ))}
        </Stack>
      ) : null}
    </Stack>
  )
}

function SheetSearch({ deps }: { deps: ValuationDeps }) {
  const [sheet, setSheet] = useState('')
  const [parcel, setParcel] = useState('')
  const [ward, setWard] = useState('')
  const [errors, setErrors] = useState<{ sheet?: string; parcel?: string }>({})
  const [note, setNote] = useState<string | null>(null)
  const [found, setFound] = useState<ParcelRef[]>([])

  async function submit(e: FormEvent) {
    e.preventDefault()
    const s = sheet.trim()
    const p = parcel.trim()
    const errs = {
      sheet: /^\d{1,6}$/.test(s) ? undefined : 'Số tờ là số nguyên, ví dụ 12.',
      parcel: /^\d{1,7}$/.test(p) ? undefined : 'Số thửa là số nguyên, ví dụ 34.',
    }
    setErrors(errs)
    if (errs.sheet || errs.parcel) return
    setNote(null)
    setFound([])
    const res = await deps.api.parcels({
      sheet_no: Number(s),
      parcel_no: Number(p),
      ...(ward.trim() ? { ward: ward.trim() } : {}),
    })
    if (!res.ok) return setNote(res.message)
    if (res.data.length === 1) return choosePlace(deps.store, placeOfRef(res.data[0]!))
    setFound(res.data)
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="xs">
        <Group grow align="flex-start">
          <TextInput
            label="Số tờ"
            inputMode="numeric"
            value={sheet}
            onChange={(e) => setSheet(e.currentTarget.value)}
            error={errors.sheet}
            size="md"
          />
          <TextInput
            label="Số thửa"
            inputMode="numeric"
            value={parcel}
            onChange={(e) => setParcel(e.currentTarget.value)}
            error={errors.parcel}
            size="md"
          />
        </Group>
        <TextInput
          label="Phường/xã (không bắt buộc)"
          placeholder="VD: Gia An"
          value={ward}
          onChange={(e) => setWard(e.currentTarget.value)}
          size="md"
        />
        <Group>
          <Button type="submit" variant="light" leftSection={<IconSearch size={18} aria-hidden />}>
            Tìm thửa
          </Button>
        </Group>
        {note ? (
          <Alert color="yellow" variant="light" role="status">
            {note}
          </Alert>
        ) : null}
        {found.length > 1 ? (
          <>
            <Text size="sm">Có {found.length} thửa trùng số tờ, số thửa. Chọn đúng thửa:</Text>
            <ParcelChoices parcels={found} onPick={(p) => choosePlace(deps.store, placeOfRef(p))} />
          </>
        ) : null}
      </Stack>
    </form>
  )
}

/** Step 1: which parcel. Chosen on the map, by address search, or by sheet and parcel number. */
export function PlacePicker({ deps, error }: { deps: ValuationDeps; error?: string }) {
  const place = useAtomValue(draftAtom).place
  const [mode, setMode] = useState<Mode>('address')
  const [changing, setChanging] = useState(false)
  useEffect(() => setChanging(false), [place])

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="place-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="place-title">
          1. Thửa đất
        </Title>
        {place ? (
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Group gap="xs" align="flex-start" wrap="nowrap" style={{ minWidth: 0 }}>
              <IconMapPin size={22} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
              <div style={{ minWidth: 0 }}>
                <Text fw={600} data-testid="place-label">
                  {place.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {place.lat.toFixed(6)}, {place.lng.toFixed(6)}
                </Text>
              </div>
            </Group>
            <Button
              variant="subtle"
              size="compact-sm"
              style={{ flex: 'none' }}
              onClick={() => setChanging((c) => !c)}
              aria-expanded={changing}
            >
              {changing ? 'Giữ thửa này' : 'Đổi thửa'}
            </Button>
          </Group>
        ) : null}
        {!place || changing ? (
          <Stack gap="sm">
            <SegmentedControl
              value={mode}
              onChange={(v) => setMode(v as Mode)}
              fullWidth
              aria-label="Cách chọn thửa đất"
              data={[
                { value: 'address', label: 'Địa chỉ' },
                { value: 'sheet', label: 'Tờ / thửa' },
                { value: 'map', label: 'Bản đồ' },
              ]}
            />
            {mode === 'address' ? <AddressSearch deps={deps} /> : null}
            {mode === 'sheet' ? <SheetSearch deps={deps} /> : null}
            {mode === 'map' ? (
              <Stack gap="xs">
                <Text size="sm">Chạm vào thửa trên bản đồ rồi chọn "Định giá thửa này".</Text>
                <Group>
                  <Button component={Link} to="/demo" leftSection={<IconMap2 size={20} aria-hidden />}>
                    Mở bản đồ
                  </Button>
                </Group>
              </Stack>
            ) : null}
          </Stack>
        ) : null}
        {error ? (
          <Text c="red" size="sm" role="alert" tabIndex={-1}>
            {error}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  )
}
