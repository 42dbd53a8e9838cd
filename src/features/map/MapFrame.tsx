import './frame.css'
import { useLayoutEffect, useRef } from 'react'
import { IconSearch } from '@tabler/icons-react'
import { showBootMap } from './boot/handoff.ts'

/** Shown in the search box's place until its code has loaded. */
export function SearchPlaceholder() {
  return (
    <div className="qh-search">
      <div className="qh-search-box qh-floating">
        <IconSearch size={20} aria-hidden />
        <input
          type="text"
          aria-label="Tìm địa chỉ, tên đường hoặc tờ/thửa"
          placeholder="Địa chỉ, đường hoặc tờ/thửa"
          disabled
        />
      </div>
    </div>
  )
}

/**
 * The map page before its map view: the map's area and the search field, exactly where the map view
 * puts them, so the page looks the same from the boot shell in index.html through to the drawn map. Part
 * of the entry chunk: /demo shows it while its route chunk and then OpenLayers load. The map index.html
 * already started (boot/) is shown in it meanwhile, before the browser paints, so it never blinks out.
 */
export function MapFrame() {
  const canvas = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => showBootMap(canvas.current!), [])
  return (
    <div className="qh-map">
      <div ref={canvas} className="qh-map-canvas" />
      <div className="visually-hidden" role="status">
        Đang tải bản đồ…
      </div>
      <SearchPlaceholder />
    </div>
  )
}
