import '@mantine/core/styles/Input.css'
import '@mantine/core/styles/InlineInput.css'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/SegmentedControl.css'
import '@mantine/core/styles/Progress.css'
import '@mantine/core/styles/Alert.css'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/ScrollArea.css'
import './valuation.css'
import './print.css'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useAtom, useAtomValue, useStore } from 'jotai'
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core'
import { getRouteApi } from '@tanstack/react-router'
import { IconCalculator, IconLogin2 } from '@tabler/icons-react'
import { api } from '../../lib/api/index.ts'
import { isSessionValid, sessionAtom } from '../auth/index.ts'
import type { HistoryEntry } from '../history/index.ts'
import { useUnsavedWork } from '../update/index.ts'
import { createValuationApi } from './api.ts'
import { draftAtom, photosAtom, resultAtom } from './atoms.ts'
import { FactsForm } from './components/FactsForm.tsx'
import { HistoryList } from './components/HistoryList.tsx'
import { PhotoPicker } from './components/PhotoPicker.tsx'
import { PlacePicker } from './components/PlacePicker.tsx'
import { PrintReport } from './components/PrintReport.tsx'
import { QueuedNotice } from './components/QueuedNotice.tsx'
import { ResultView } from './components/ResultView.tsx'
import { placeFromMap, runValuation, type ValuationDeps } from './flow.ts'
import { validateDraft, type DraftErrors } from './form.ts'
import { sheetAndParcel } from './search.ts'

const route = getRouteApi('/valuation')

export function ValuationPage() {
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const store = useStore()
  const deps = useMemo<ValuationDeps>(() => ({ store, client: api, api: createValuationApi(api) }), [store])
  const draft = useAtomValue(draftAtom)
  const photos = useAtomValue(photosAtom)
  const [shown, setShown] = useAtom(resultAtom)
  const [session, setSession] = useAtom(sessionAtom)
  const [errors, setErrors] = useState<DraftErrors>({})
  const [submitted, setSubmitted] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const [planningError, setPlanningError] = useState<string | null>(null)
  const [mapImage, setMapImage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const resultRef = useRef<HTMLDivElement>(null)

  // Photos live in memory until the valuation that uses them has run: a reload then would lose them.
  useUnsavedWork(busy || (photos.length > 0 && !shown))

  // Once the user has tried to submit, each field says what is wrong as it is corrected.
  useEffect(() => {
    if (!submitted) return
    const checked = validateDraft(draft)
    setErrors(checked.ok ? {} : checked.errors)
  }, [draft, submitted])

  // A point handed over by the map becomes the chosen parcel; the parameters are then dropped from the
  // address, so a reload keeps what the user chose afterwards instead of going back to the map's point.
  const { lat, lng } = search
  const ref = sheetAndParcel(search)
  const sheet = ref?.sheet
  const parcel = ref?.parcel
  useEffect(() => {
    if (lat === undefined || lng === undefined) return
    void placeFromMap(deps, { lat, lng, sheet, parcel }).then(() => navigate({ search: {}, replace: true }))
  }, [deps, lat, lng, sheet, parcel, navigate])

  useEffect(() => setMapImage(null), [shown?.historyId])

  async function submit(e: FormEvent) {
    e.preventDefault()
    setSubmitted(true)
    setMessage(null)
    setBusy(true)
    try {
      const out = await runValuation(deps)
      if (!out.ok) {
        if (out.errors) {
          setErrors(out.errors)
          // Straight to the first field that needs fixing, for keyboard and screen-reader users too.
          requestAnimationFrame(() =>
            document
              .querySelector<HTMLElement>('.valuation-screen [aria-invalid="true"], .valuation-screen [role="alert"]')
              ?.focus(),
          )
        }
        if (out.message) setMessage(out.message)
        return
      }
      setPlanningError(out.planningError)
      requestAnimationFrame(() => resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }))
    } finally {
      setBusy(false)
    }
  }

  function openStored(entry: HistoryEntry<'valuation'>) {
    setPlanningError(null)
    setShown({ record: entry.result, historyId: entry.id, at: entry.at, stored: true })
    requestAnimationFrame(() => resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }))
  }

  const loggedIn = isSessionValid(session)
  return (
    <>
      <Container size="md" py="lg" className="valuation-screen">
        <Stack gap="md">
          <div>
            <Title order={1}>Định giá đất</Title>
            <Text c="dimmed">
              Giá theo bảng giá đất của tỉnh (VT1–VT4) và khoảng giá thị trường từ các giao dịch gần đó, kèm quy hoạch
              của thửa.
            </Text>
          </div>
          {!loggedIn ? (
            <Alert color="sky" variant="light" title="Cần đăng nhập để định giá">
              <Stack gap="xs">
                <Text size="sm">Bạn vẫn có thể điền thông tin và chụp ảnh trước; mọi thứ đã nhập được giữ lại.</Text>
                <Group>
                  <Button
                    size="sm"
                    leftSection={<IconLogin2 size={18} aria-hidden />}
                    onClick={() => setSession({ ...session, isOpenLogin: true })}
                  >
                    Đăng nhập
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : null}
          <PlacePicker deps={deps} error={errors.place} />
          <form onSubmit={(e) => void submit(e)} noValidate aria-label="Thông tin định giá">
            <Stack gap="md">
              <FactsForm errors={errors} />
              <PhotoPicker deps={deps} />
              {message ? (
                <Alert color="red" variant="light" role="alert">
                  {message}
                </Alert>
              ) : null}
              <QueuedNotice deps={deps} />
              <Stack gap={4}>
                <Group>
                  <Button
                    type="submit"
                    size="md"
                    loading={busy}
                    leftSection={<IconCalculator size={20} aria-hidden />}
                    data-testid="valuate"
                  >
                    Định giá
                  </Button>
                </Group>
                <Text size="xs" c="dimmed">
                  Mỗi lần định giá dùng 1 lượt tra cứu; xem quy hoạch của thửa dùng thêm 1 lượt nếu thửa chưa được tra
                  gần đây.
                </Text>
              </Stack>
            </Stack>
          </form>
          <div ref={resultRef} style={{ scrollMarginTop: 72 }}>
            {shown ? (
              <ResultView shown={shown} planningError={shown.stored ? null : planningError} onSnapshot={setMapImage} />
            ) : null}
          </div>
          <HistoryList onOpen={openStored} openId={shown?.historyId ?? null} />
        </Stack>
      </Container>
      {shown ? <PrintReport shown={shown} mapImage={mapImage} /> : null}
    </>
  )
}
