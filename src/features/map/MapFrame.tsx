import './frame.css'
import { IconSearch } from '@tabler/icons-react'

/** Shown in the search box's place until its code has loaded. */
export function SearchPlaceholder() {
  return (
    <div className="qh-search">
      <div className="qh-search-box qh-floating">
        <IconSearch size={20} aria-hidden />
        <input type="text" aria-label="Tìm địa chỉ, tên đường hoặc tờ/thửa" placeholder="Địa chỉ, đường, hoặc “tờ 12 thửa 345”" disabled />
      </div>
    </div>
  )
}

/**
 * The map page before its map: the map's area and the search field, exactly where the map view puts
 * them, so the page looks the same from the boot shell in index.html through to the drawn map. Part of
 * the entry chunk: /demo shows it while its route chunk and then OpenLayers load.
 */
export function MapFrame() {
  return (
    <div className="qh-map">
      <div className="qh-map-canvas" />
      <div className="visually-hidden" role="status">
        Đang tải bản đồ…
      </div>
      <SearchPlaceholder />
    </div>
  )
}
