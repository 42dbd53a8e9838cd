import { Alert, Button, Stack, Text } from '@mantine/core'
import { IconPrinter } from '@tabler/icons-react'
import { ExportButtons } from '../../../components/ExportButtons.tsx'
import { formatArea, formatMeters, formatNumber } from '../../../lib/format/format.ts'
import { CornerTable, cornersCsv, outlineDxf, outlineOf, SketchDrawing, type Outline } from '../../sketch/index.ts'
import { compareWithParcel, walkFigures, type Walk } from '../track.ts'

const signed = (v: number, digits: number) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${formatNumber(Math.abs(v), digits)}`

/** The finished walk: how it differs from the registered parcel, and the same exports as the sketch. */
export function WalkResult({
  walk,
  parcel,
  parcelLabel,
}: {
  walk: Walk
  parcel: Outline | null
  parcelLabel: string | null
}) {
  const outline = outlineOf(walkFigures(walk).ring, walk.meridian)
  if (!outline) return <Alert color="yellow">Cần ít nhất 3 điểm để khép ranh thửa.</Alert>
  const cmp = parcel ? compareWithParcel(walk, parcel) : null
  const base = `ranh-di-do-${new Date(walk.startedAt).toISOString().slice(0, 10)}`
  const title = `Ranh đi đo${parcelLabel ? ` — ${parcelLabel}` : ''}`
  return (
    <Stack gap="sm" className="sketch-page">
      {cmp && (
        <Alert
          color={Math.abs(cmp.differencePct) > 5 || cmp.largestOffsetM > 1 ? 'yellow' : 'teal'}
          title={`So với ${parcelLabel ?? 'thửa trong dữ liệu'}`}
          data-testid="walk-comparison"
        >
          <Text size="sm">
            Diện tích đi đo {formatArea(cmp.walkedM2)}, trong dữ liệu {formatArea(cmp.registeredM2)}: chênh{' '}
            {signed(cmp.differenceM2, 1)} m² ({signed(cmp.differencePct, 1)}%).
          </Text>
          <Text size="sm" data-testid="walk-offset">
            Lệch ranh lớn nhất: {formatMeters(cmp.largestOffsetM)}.
          </Text>
        </Alert>
      )}
      <ExportButtons
        base={base}
        what="ranh đi đo"
        className="sketch-actions"
        files={[
          { format: 'csv', build: () => cornersCsv(outline) },
          { format: 'dxf', build: () => outlineDxf(outline, { title }) },
        ]}
      >
        <Button variant="light" leftSection={<IconPrinter size={18} aria-hidden />} onClick={() => window.print()}>
          In A4
        </Button>
      </ExportButtons>
      <div className="sketch-body">
        <SketchDrawing
          outline={outline}
          neighbours={null}
          street={null}
          label={`${title}, ${outline.corners.length} điểm`}
        />
        <div className="sketch-side-panel">
          <CornerTable outline={outline} />
        </div>
      </div>
    </Stack>
  )
}
