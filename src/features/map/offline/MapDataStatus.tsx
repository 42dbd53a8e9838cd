import './offline-map.css'
import { useEffect } from 'react'
import { useAtom } from 'jotai'
import { useOnline } from '../../../lib/use-online.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'
import { areaCovering, listAreas, savedAreasAtom } from '../../offline/index.ts'
import { formatAge } from '../../offline/index.ts'

/**
 * Offline (or with the server out of reach while the browser believes it is online), the map says so
 * and where its tiles come from and how old they are: a saved area, or only what was seen recently.
 */
export default function MapDataStatus({ view, unreachable }: { view: LatLngZoom; unreachable: boolean }) {
  const online = useOnline()
  const [areas, setAreas] = useAtom(savedAreasAtom)
  useEffect(() => void listAreas().then(setAreas), [online, setAreas])
  const area = areaCovering(areas, view.lat, view.lng, view.zoom)
  const state = unreachable ? 'Không kết nối được máy chủ' : 'Ngoại tuyến'
  return (
    <div className="map-data-status qh-floating" role="status" data-testid="map-data-status">
      {area && area.updatedAt !== null
        ? `${state} · bản đồ đã lưu “${area.name}”, cập nhật ${formatAge(area.updatedAt)}`
        : `${state} · bản đồ đã xem gần đây`}
    </div>
  )
}
