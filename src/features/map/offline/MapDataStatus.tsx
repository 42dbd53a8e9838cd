import './offline-map.css'
import { useEffect } from 'react'
import { useAtom } from 'jotai'
import { useOnline } from '../../../lib/use-online.ts'
import type { LatLngZoom } from '../../../lib/map-url.ts'
import { areaCovering, listAreas, savedAreasAtom } from '../../offline/index.ts'
import { formatAge } from '../../offline/index.ts'

/** Offline, the map says where its tiles come from and how old they are: a saved area, or only what was seen recently. */
export default function MapDataStatus({ view }: { view: LatLngZoom }) {
  const online = useOnline()
  const [areas, setAreas] = useAtom(savedAreasAtom)
  useEffect(() => void listAreas().then(setAreas), [online, setAreas])
  if (online) return null
  const area = areaCovering(areas, view.lat, view.lng, view.zoom)
  return (
    <div className="map-data-status qh-floating" role="status" data-testid="map-data-status">
      {area && area.updatedAt !== null ? `Ngoại tuyến · bản đồ đã lưu “${area.name}”, cập nhật ${formatAge(area.updatedAt)}` : 'Ngoại tuyến · bản đồ đã xem gần đây'}
    </div>
  )
}
