import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Alert.css'
import { useEffect, useState } from 'react'
import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconPrinter, IconTarget, IconWalk } from '@tabler/icons-react'
import { ExportButtons } from '../../components/ExportButtons.tsx'
import { formatArea, formatDateTime, formatMeters } from '../../lib/format/format.ts'
import { CornerTable } from './components/CornerTable.tsx'
import { SketchDrawing } from './components/SketchDrawing.tsx'
import { cornersCsv, crsLabel, outlineDxf } from './exports.ts'
import { loadSketch, withSurroundings, type SketchQuery, type SketchResult, type SketchSubject } from './source.ts'

const parcelTitle = (s: Pick<SketchSubject, 'parcelNo' | 'sheetNo'>) =>
  `Thửa ${s.parcelNo ?? '?'}, tờ bản đồ ${s.sheetNo ?? '?'}`

function Exports({ subject }: { subject: SketchSubject }) {
  const base = `so-do-to-${subject.sheetNo ?? 'x'}-thua-${subject.parcelNo ?? 'x'}`
  const title = `${parcelTitle(subject)}${subject.place ? ` — ${subject.place}` : ''}`
  return (
    <ExportButtons
      base={base}
      what="sơ đồ thửa"
      className="sketch-actions"
      files={[
        { format: 'csv', build: () => cornersCsv(subject.outline) },
        {
          format: 'dxf',
          build: () =>
            outlineDxf(subject.outline, {
              title,
              address: [subject.address, subject.place].filter(Boolean).join(', '),
              neighbours: subject.neighbours,
              street: subject.street,
            }),
        },
      ]}
    >
      <Button variant="light" leftSection={<IconPrinter size={18} aria-hidden />} onClick={() => window.print()}>
        In A4
      </Button>
      {subject.parcelId && (
        <Link to="/walk" search={{ parcel: subject.parcelId }} className="sketch-walk-link">
          <IconWalk size={18} aria-hidden /> Đi đo ranh thửa
        </Link>
      )}
      {subject.parcelId && (
        <Link to="/stakeout" search={{ parcel: subject.parcelId }} className="sketch-walk-link">
          <IconTarget size={18} aria-hidden /> Cắm mốc
        </Link>
      )}
    </ExportButtons>
  )
}

function Facts({ subject }: { subject: SketchSubject }) {
  const { outline, origin } = subject
  return (
    <dl className="sketch-facts">
      <dt>Diện tích theo toạ độ</dt>
      <dd data-testid="sketch-area">{formatArea(outline.areaM2)}</dd>
      {subject.registeredAreaM2 !== null && (
        <>
          <dt>Diện tích trong dữ liệu</dt>
          <dd>{formatArea(subject.registeredAreaM2)}</dd>
        </>
      )}
      <dt>Chu vi</dt>
      <dd>{formatMeters(outline.perimeterM)}</dd>
      {subject.landUse && (
        <>
          <dt>Mục đích sử dụng</dt>
          <dd>{subject.landUse}</dd>
        </>
      )}
      <dt>Đường</dt>
      <dd>
        {subject.street === undefined
          ? 'Đang đọc…'
          : subject.street
            ? `${subject.street.name} (cách ${formatMeters(subject.street.distanceM)})`
            : 'Không rõ'}
      </dd>
      <dt>Thửa liền kề</dt>
      <dd data-testid="sketch-neighbours">
        {subject.neighbours === undefined
          ? 'Đang đọc bản đồ thửa quanh đây…'
          : subject.neighbours === null
            ? 'Không đọc được bản đồ thửa quanh đây (chưa lưu khu vực này để dùng offline)'
            : subject.neighbours.length === 0
              ? 'Không có'
              : subject.neighbours
                  .map((n) => `thửa ${n.parcelNo ?? '?'} (tờ ${n.sheetNo ?? '?'}) phía ${n.side}`)
                  .join('; ')}
      </dd>
      <dt>Hệ toạ độ</dt>
      <dd>{crsLabel(outline.meridian)}</dd>
      <dt>Nguồn ranh thửa</dt>
      <dd>
        {origin.kind === 'history'
          ? `Kết quả tra cứu lúc ${formatDateTime(origin.at)}`
          : `Bản đồ thửa đã lưu trên máy, sai số đến khoảng ${formatMeters(origin.precisionM)}`}
      </dd>
    </dl>
  )
}

/**
 * The parcel sketch (sơ đồ thửa đất) a surveyor holds beside the certificate: outline to scale,
 * numbered corners with VN-2000 coordinates, sides, area, neighbours and street, offline from the
 * lookup history or a saved area; CSV, DXF and an A4 print.
 */
export function SketchPage({ query }: { query: SketchQuery }) {
  const [result, setResult] = useState<SketchResult | null>(null)
  const { parcel, lat, lng } = query
  useEffect(() => {
    const ctrl = new AbortController()
    setResult(null)
    const show = (r: SketchResult) => !ctrl.signal.aborted && setResult(r)
    loadSketch({ parcel, lat, lng }, ctrl.signal).then(
      async (r) => {
        show(r)
        if (r.ok) show({ ok: true, subject: await withSurroundings(r.subject, ctrl.signal) })
      },
      (err: unknown) => {
        console.warn('sketch unavailable', err)
        if (!ctrl.signal.aborted) setResult({ ok: false, reason: 'not-found' })
      },
    )
    return () => ctrl.abort()
  }, [parcel, lat, lng])

  return (
    <Container size="md" py="lg" w="100%" className="sketch-page">
      <Stack gap="md">
        <Title order={1}>Sơ đồ thửa đất</Title>
        {!result && (
          <Group gap="xs" role="status">
            <Loader size="sm" aria-hidden />
            <Text>Đang lập sơ đồ…</Text>
          </Group>
        )}
        {result && !result.ok && (
          <Alert color="yellow" title="Chưa lập được sơ đồ" role="alert">
            {result.reason === 'no-outline'
              ? 'Thửa này không có ranh thửa đầy đủ trong dữ liệu đã lưu.'
              : 'Thửa này chưa có trong lịch sử tra cứu hay khu vực đã lưu trên máy. Hãy chạm vào thửa trên bản đồ khi có mạng một lần; sau đó sơ đồ dùng được cả khi không có mạng.'}
            <div>
              <Button component={Link} to="/demo" variant="subtle" mt="xs">
                Về bản đồ
              </Button>
            </div>
          </Alert>
        )}
        {result?.ok && (
          <>
            <div>
              <Title order={2} size="h3" data-testid="sketch-title">
                {parcelTitle(result.subject)}
              </Title>
              {(result.subject.address || result.subject.place) && (
                <Text c="dimmed">{[result.subject.address, result.subject.place].filter(Boolean).join(' · ')}</Text>
              )}
            </div>
            <Exports subject={result.subject} />
            <div className="sketch-body">
              <SketchDrawing
                outline={result.subject.outline}
                neighbours={result.subject.neighbours ?? null}
                street={result.subject.street?.name ?? null}
                sheetNo={result.subject.sheetNo}
                label={`Sơ đồ ${parcelTitle(result.subject)}, ${result.subject.outline.corners.length} điểm góc`}
              />
              <div className="sketch-side-panel">
                <CornerTable outline={result.subject.outline} />
                <Facts subject={result.subject} />
              </div>
            </div>
          </>
        )}
      </Stack>
    </Container>
  )
}
