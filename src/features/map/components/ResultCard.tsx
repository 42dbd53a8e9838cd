import { useId, useState } from 'react'
import { useAtomValue } from 'jotai'
import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import {
  IconCalculator,
  IconCopy,
  IconDirections,
  IconPrinter,
  IconRuler2,
  IconSearch,
  IconShare,
  IconTarget,
  IconWalk,
} from '@tabler/icons-react'
import type { PlanningData } from '#core/contract/lookups.ts'
import { formatArea, formatDate, formatNumber } from '../../../lib/format/format.ts'
import { formatDecimal, formatMeridian, formatVn2000 } from '../../../lib/geo/coordinates.ts'
import { store } from '../../../lib/store.ts'
import { formatResetTime } from '../../../lib/errors.ts'
import { pushToast } from '../../notifications/index.ts'
import { isUsageStale, lowUsageText, remaining, usageAtom } from '../../usage/index.ts'
import { fullAddress, isSimulated, nonResidentialZones, reserveVerdict, type Selection } from '../selection.ts'
import { printCard } from '../print-card.ts'
import { copyText, geoUri, shareLink } from '../share.ts'
import { ComparePlansLink } from './ComparePlansLink.tsx'
import { LandUseList } from './LandUseList.tsx'
import type { ServerData } from '../server-data.ts'
import { NoDataResult, PlaceLine } from './PlaceInfo.tsx'
import { PlanOverlays } from './PlanOverlays.tsx'
import { PlanZones } from './PlanZones.tsx'
import { PrintCardHead, PrintCorners } from './PrintCard.tsx'

function vn2000Text(location: PlanningData['location']): string {
  const g = formatVn2000(location.vn2000)
  return `VN-2000 (kinh tuyến trục ${formatMeridian(location.vn2000.zone_meridian)}): X ${g.x} m, Y ${g.y} m`
}

/** "Tờ 18, thửa 118"; a zones-only answer is named after the point. */
function resultTitle({ parcel }: PlanningData): string {
  return parcel ? `Tờ ${parcel.sheet_no}, thửa ${parcel.parcel_no}` : 'Quy hoạch tại điểm đã chọn'
}

/** The parcel's own facts and the road reserves cutting it; absent from a zones-only answer. */
function ParcelFacts({ parcel, result }: { parcel: NonNullable<PlanningData['parcel']>; result: PlanningData }) {
  const verdict = reserveVerdict(result)
  return (
    <>
      <h3>Thửa đất</h3>
      <dl>
        <dt>Số tờ / số thửa</dt>
        <dd>
          {parcel.sheet_no} / {parcel.parcel_no}
        </dd>
        <dt>Diện tích</dt>
        <dd>{formatArea(parcel.area_m2)}</dd>
        <dt>Mục đích sử dụng</dt>
        <dd>
          <LandUseList parts={parcel.land_use} />
        </dd>
      </dl>

      <h3>Lộ giới</h3>
      <p className="qh-verdict" data-affected={verdict.affected} data-testid="reserve-verdict">
        {verdict.affected ? `Vướng quy hoạch lộ giới: ${formatArea(verdict.totalM2)}` : 'Không vướng quy hoạch lộ giới'}
      </p>
      {result.road_reserves.length > 0 && (
        <ul>
          {result.road_reserves.map((r, i) => (
            <li key={`${r.road_name}-${i}`}>
              {r.road_name} (lộ giới {formatNumber(r.width_m, 1)} m): phần đất bị ảnh hưởng{' '}
              {formatArea(r.affected_area_m2)}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

/**
 * "Định giá thửa này": a valuation counts a lookup, so with none left today (as the server last said)
 * the button is disabled and says why, while the card itself stays open.
 */
function ValueButton({
  parcel,
  location,
}: {
  parcel: NonNullable<PlanningData['parcel']>
  location: PlanningData['location']
}) {
  const usage = useAtomValue(usageAtom)
  const reasonId = useId()
  const spent = usage.limit > 0 && !isUsageStale(usage) && remaining(usage) === 0
  if (spent) {
    return (
      <Stack gap={2} w="100%">
        <Button disabled leftSection={<IconCalculator size={20} aria-hidden />} aria-describedby={reasonId}>
          Định giá thửa này
        </Button>
        <Text size="sm" id={reasonId} data-testid="value-spent">
          {lowUsageText(usage, formatResetTime)} Định giá được tính 1 lượt.
        </Text>
      </Stack>
    )
  }
  return (
    <Button
      renderRoot={(props) => (
        <Link
          to="/valuation"
          search={{ lat: location.lat, lng: location.lng, sheet: parcel.sheet_no, parcel: parcel.parcel_no }}
          {...props}
        />
      )}
      leftSection={<IconCalculator size={20} aria-hidden />}
    >
      Định giá thửa này
    </Button>
  )
}

function Actions({ result, shareUrl }: { result: PlanningData; shareUrl: string }) {
  const { parcel, location } = result
  const title = resultTitle(result)
  // The map is drawn again at the page's width before the print dialog opens.
  const [printing, setPrinting] = useState(false)
  const copyCoordinates = async () => {
    const ok = await copyText(`${formatDecimal(location)}\n${vn2000Text(location)}`)
    pushToast(
      store,
      ok ? 'success' : 'error',
      ok ? 'Đã chép toạ độ.' : 'Không chép được toạ độ. Hãy chọn và chép bằng tay.',
    )
  }
  const share = async () => {
    const outcome = await shareLink({
      title: `${title} — Quy hoạch VN`,
      text: parcel ? `${title}, ${parcel.address}` : title,
      url: shareUrl,
    })
    if (outcome === 'copied')
      pushToast(store, 'success', parcel ? 'Đã chép liên kết tới thửa này.' : 'Đã chép liên kết tới điểm này.')
    else if (outcome === 'failed') pushToast(store, 'error', 'Không chia sẻ được liên kết.')
  }
  return (
    <Group gap={8} mt="md" wrap="wrap" className="qh-card-actions">
      {parcel && <ValueButton parcel={parcel} location={location} />}
      {parcel && (
        <Button
          variant="default"
          renderRoot={(props) => (
            <Link to="/sketch" search={{ parcel: parcel.id, lat: location.lat, lng: location.lng }} {...props} />
          )}
          leftSection={<IconRuler2 size={20} aria-hidden />}
        >
          Sơ đồ thửa
        </Button>
      )}
      {parcel && (
        <Button
          variant="default"
          renderRoot={(props) => <Link to="/walk" search={{ parcel: parcel.id }} {...props} />}
          leftSection={<IconWalk size={20} aria-hidden />}
        >
          Đi đo ranh
        </Button>
      )}
      {parcel && (
        <Button
          variant="default"
          renderRoot={(props) => (
            <Link to="/stakeout" search={{ parcel: parcel.id, lat: location.lat, lng: location.lng }} {...props} />
          )}
          leftSection={<IconTarget size={20} aria-hidden />}
        >
          Cắm mốc
        </Button>
      )}
      <Button variant="default" onClick={copyCoordinates} leftSection={<IconCopy size={20} aria-hidden />}>
        Chép toạ độ
      </Button>
      <Button variant="default" onClick={share} leftSection={<IconShare size={20} aria-hidden />}>
        Chia sẻ
      </Button>
      <Button
        variant="default"
        onClick={() => {
          setPrinting(true)
          void printCard({ geometry: parcel?.geometry ?? null, point: location }).finally(() => setPrinting(false))
        }}
        loading={printing}
        leftSection={<IconPrinter size={20} aria-hidden />}
        data-testid="print-card"
      >
        In phiếu (A4 / PDF)
      </Button>
      <Button
        variant="default"
        component="a"
        href={geoUri(location.lat, location.lng, title)}
        leftSection={<IconDirections size={20} aria-hidden />}
      >
        Chỉ đường
      </Button>
    </Group>
  )
}

function PlanningResult({ result, shareUrl }: { result: PlanningData; shareUrl: string }) {
  const id = useId()
  const [printedAt] = useState(() => Date.now())
  const { parcel, zones, location, source } = result
  const otherUse = nonResidentialZones(result)
  const grid = formatVn2000(location.vn2000)
  return (
    <article className="qh-result" aria-labelledby={`${id}-title`} data-testid="result-card">
      <PrintCardHead at={printedAt} />
      <h2 id={`${id}-title`} data-testid="result-title">
        {resultTitle(result)}
      </h2>
      <Text size="sm" mt={2} data-testid={parcel ? undefined : 'no-parcel'}>
        {parcel
          ? fullAddress(parcel)
          : 'Không có thửa đất nào trong dữ liệu tại điểm này; dưới đây là quy hoạch phủ điểm này.'}
      </Text>
      {result.place && <PlaceLine place={result.place} />}
      {isSimulated(source) && (
        <Badge color="var(--qh-badge-warning)" variant="filled" mt={6} style={{ textTransform: 'none' }}>
          Dữ liệu mô phỏng
        </Badge>
      )}

      {parcel && <ParcelFacts parcel={parcel} result={result} />}

      <h3>Quy hoạch</h3>
      {otherUse.length > 0 && (
        <p className="qh-verdict" data-affected="true">
          Vướng quy hoạch: điểm đã chọn nằm trong ô quy hoạch{' '}
          {otherUse.map((z) => `${z.land_use_name} (${z.land_use_code})`).join(', ')}, không phải đất ở.
        </p>
      )}
      <PlanZones zones={zones} headingId={id} />
      <ComparePlansLink result={result} />
      <PlanOverlays overlays={result.overlays} />

      <PrintCorners result={result} />

      <h3>Toạ độ VN-2000</h3>
      <dl>
        <dt>X (hướng bắc)</dt>
        <dd data-testid="result-vn2000-x">{grid.x} m</dd>
        <dt>Y (hướng đông)</dt>
        <dd data-testid="result-vn2000-y">{grid.y} m</dd>
        <dt>Kinh tuyến trục</dt>
        <dd>{formatMeridian(location.vn2000.zone_meridian)}</dd>
        <dt>Vĩ độ, kinh độ</dt>
        <dd>{formatDecimal(location)}</dd>
      </dl>

      <h3>Nguồn dữ liệu</h3>
      <dl>
        <dt>Bộ dữ liệu</dt>
        <dd>{source.name}</dd>
        <dt>Ngày dữ liệu</dt>
        <dd>{formatDate(source.data_date)}</dd>
      </dl>

      <Actions result={result} shareUrl={shareUrl} />
    </article>
  )
}

/** The lookup result, or what stands before it: the lookup running, or a shared link waiting to be looked up. */
export default function ResultCard(props: {
  selection: Selection
  shareUrl: string
  onLookup: () => void
  /** What data the server holds (null until its TileJSONs are read), said where a tap found none. */
  server?: ServerData | null
  onShowData?: () => void
}) {
  const { selection } = props
  if (selection.status === 'ready') return <PlanningResult result={selection.result} shareUrl={props.shareUrl} />
  if (selection.status === 'no-data')
    return (
      <NoDataResult
        point={selection.point}
        place={selection.place}
        server={props.server ?? null}
        onShowData={props.onShowData ?? (() => {})}
      />
    )
  if (selection.status === 'loading') {
    return (
      <div className="qh-result" aria-busy="true">
        <Group gap={10} py="sm">
          <Loader size="sm" aria-hidden />
          <Text fw={600}>
            {selection.waitingForLogin ? 'Đăng nhập để xem thông tin thửa đất tại điểm này.' : 'Đang tra cứu thửa đất…'}
          </Text>
        </Group>
        <Text size="sm">Vị trí: {formatDecimal(selection.point)}</Text>
      </div>
    )
  }
  return (
    <div className="qh-result">
      <h2>Thửa đất được chia sẻ</h2>
      <Text size="sm" my="xs">
        Liên kết này chỉ tới vị trí {formatDecimal(selection.point)}. Tra cứu thông tin quy hoạch của thửa tại đây cần
        đăng nhập và được tính 1 lượt.
      </Text>
      <Button onClick={props.onLookup} leftSection={<IconSearch size={20} aria-hidden />}>
        Tra cứu thửa này
      </Button>
    </div>
  )
}
