import { useEffect, useState } from 'react'

export type Position = { lat: number; lng: number; accuracyM: number; at: number }
export type PositionState = { fix: Position | null; error: string | null }

const errorText = (e: GeolocationPositionError) =>
  e.code === e.PERMISSION_DENIED
    ? 'Ứng dụng chưa được phép dùng vị trí. Hãy cho phép vị trí trong cài đặt trình duyệt.'
    : e.code === e.TIMEOUT
      ? 'Chưa bắt được tín hiệu GPS. Hãy ra chỗ thoáng, xa nhà cao.'
      : 'Không đọc được vị trí của máy.'

/**
 * The device's position while `active`, from the satellite receiver (high accuracy, never a cached
 * fix): GPS works without any network, so the walk works in airplane mode.
 */
export function usePosition(active: boolean, onFix?: (p: Position) => void): PositionState {
  const [state, setState] = useState<PositionState>({ fix: null, error: null })
  useEffect(() => {
    if (!active) return
    if (!('geolocation' in navigator)) {
      setState({ fix: null, error: 'Máy này không có định vị.' })
      return
    }
    const id = navigator.geolocation.watchPosition(
      (p) => {
        const fix = { lat: p.coords.latitude, lng: p.coords.longitude, accuracyM: p.coords.accuracy, at: p.timestamp }
        setState({ fix, error: null })
        onFix?.(fix)
      },
      (e) => setState((s) => ({ ...s, error: errorText(e) })),
      { enableHighAccuracy: true, maximumAge: 0, timeout: 30_000 },
    )
    return () => navigator.geolocation.clearWatch(id)
  }, [active, onFix])
  return state
}
