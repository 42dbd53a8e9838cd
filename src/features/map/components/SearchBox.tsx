import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { CloseButton, Loader } from '@mantine/core'
import { IconSearch } from '@tabler/icons-react'
import type { ParcelRef, SearchResult } from '#core/contract/lookups.ts'
import { alleyWord } from '#core/text/alley.ts'
import { placeLine } from '#core/text/place-line.ts'
import { fetchTileJson } from '../../../lib/tilejson.ts'
import { mapConfig } from '../config.ts'
import { findParcels, searchPlaces } from '../lookup.ts'
import type { Point } from '../../../lib/map-url.ts'
import { parseSheetParcel } from '../sheet-parcel.ts'
import { inexactNote } from '../search-note.ts'

export type SearchChoice = { kind: 'place'; place: SearchResult } | { kind: 'parcel'; parcel: ParcelRef }

type Option = { key: string; label: string; detail: string; choice: SearchChoice }

const kindLabel: Record<SearchResult['kind'], string> = {
  address: 'Địa chỉ',
  street: 'Đường',
  ward: 'Phường/xã',
  parcel: 'Thửa đất',
}

function optionsOf(results: SearchResult[] | ParcelRef[], parcels: boolean): Option[] {
  if (parcels) {
    return (results as ParcelRef[]).map((p) => ({
      key: `parcel-${p.id}`,
      label: `Tờ ${p.sheet_no}, thửa ${p.parcel_no}`,
      detail: placeLine([p.address, p.ward, p.province]),
      choice: { kind: 'parcel', parcel: p },
    }))
  }
  return (results as SearchResult[]).map((r) => ({
    key: `${r.kind}-${r.id}`,
    label: r.label,
    detail: `${(r.kind === 'street' && alleyWord(r.label)) || kindLabel[r.kind]} · ${r.detail}`,
    choice: { kind: 'place', place: r },
  }))
}

let coverage: Promise<string> | null = null
/** " Dữ liệu hiện có: …." from the parcels' TileJSON (read once), so a search that finds nothing says where to look; empty when unknown. */
function coverageNote(): Promise<string> {
  coverage ??= fetchTileJson('parcels').then(
    (tj) => (tj.coverage && tj.coverage.length > 0 ? ` Dữ liệu hiện có: ${tj.coverage.join('; ')}.` : ''),
    () => {
      coverage = null
      return ''
    },
  )
  return coverage
}

type Status =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'done'; options: Option[]; note?: string }
  | { kind: 'error'; message: string }

/**
 * The map's search: addresses, streets and wards as you type (debounced, diacritics optional), or a
 * tờ/thửa reference. A combobox in the ARIA sense: arrows move through the list, Enter chooses,
 * Escape closes, and the active option is announced through aria-activedescendant. `near`: the map's
 * centre when it shows about one ward (that ward is searched first).
 */
export default function SearchBox(props: {
  loggedIn: boolean
  near?: Point
  onChoose: (choice: SearchChoice) => void
}) {
  const id = useId()
  const listId = `${id}-list`
  const [text, setText] = useState('')
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const abort = useRef<AbortController | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  // The chosen option's label fills the box; that is not a new query.
  const chosen = useRef<string | null>(null)
  // The map moving is not a new query: the next search reads where it is then.
  const near = useRef(props.near)
  useEffect(() => {
    near.current = props.near
  })

  const run = async (q: string) => {
    abort.current?.abort()
    const ctrl = new AbortController()
    abort.current = ctrl
    setStatus({ kind: 'loading' })
    const sheet = parseSheetParcel(q)
    const res = sheet ? await findParcels(sheet, ctrl.signal) : await searchPlaces(q, near.current, ctrl.signal)
    if (ctrl.signal.aborted) return
    if (!res.ok) {
      if (res.code === 'Aborted') return
      setStatus(res.code === 'RequiredLogin' ? { kind: 'idle' } : { kind: 'error', message: res.message })
      return
    }
    const options = optionsOf(res.data, sheet !== null)
    const where = options.length > 0 ? '' : await coverageNote()
    if (ctrl.signal.aborted) return
    setActive(options.length > 0 ? 0 : -1)
    setStatus({
      kind: 'done',
      options,
      note:
        options.length > 0
          ? sheet
            ? undefined
            : inexactNote(
                q,
                options.map((o) => o.label),
              )
          : (sheet
              ? `Không có thửa đất nào là tờ ${sheet.sheet_no}, thửa ${sheet.parcel_no}.`
              : 'Không tìm thấy địa chỉ hay tên đường nào khớp.') + where,
    })
  }

  // As-you-type search needs a session; logged out, the list says so and Enter asks for the login.
  useEffect(() => {
    clearTimeout(timer.current)
    const q = text.trim()
    if (text === chosen.current) return
    if (q.length < 2 || !props.loggedIn) {
      abort.current?.abort()
      setStatus({ kind: 'idle' })
      return
    }
    timer.current = setTimeout(() => void run(q), mapConfig.searchDebounceMs)
    return () => clearTimeout(timer.current)
  }, [text, props.loggedIn])
  useEffect(() => () => abort.current?.abort(), [])

  const options = status.kind === 'done' ? status.options : []

  const choose = (o: Option) => {
    setOpen(false)
    chosen.current = o.label
    setText(o.label)
    props.onChoose(o.choice)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      setOpen(true)
      if (options.length === 0) return
      const step = e.key === 'ArrowDown' ? 1 : -1
      setActive((a) => (a + step + options.length) % options.length)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      const pick = options[active] ?? options[0]
      if (pick && open) choose(pick)
      else if (text.trim().length > 0) {
        setOpen(true)
        void run(text.trim())
      }
    } else if (e.key === 'Escape') {
      if (open) setOpen(false)
      else setText('')
    } else if (e.key === 'Home' && open && options.length > 0) {
      setActive(0)
    } else if (e.key === 'End' && open && options.length > 0) {
      setActive(options.length - 1)
    }
  }

  const expanded = open && (status.kind !== 'idle' || (!props.loggedIn && text.trim().length >= 2))
  const activeId = expanded && active >= 0 && options[active] ? `${id}-opt-${active}` : undefined
  const liveText =
    status.kind === 'done'
      ? status.options.length > 0
        ? `${status.options.length} kết quả`
        : (status.note ?? '')
      : status.kind === 'error'
        ? status.message
        : ''

  return (
    <div className="qh-search" role="search">
      <div className="qh-search-box qh-floating">
        <IconSearch size={20} aria-hidden />
        <input
          type="text"
          role="combobox"
          aria-label="Tìm địa chỉ, tên đường hoặc tờ/thửa"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeId}
          placeholder="Địa chỉ, đường hoặc tờ/thửa"
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          value={text}
          data-testid="map-search"
          onChange={(e) => {
            clearTimeout(closing.current)
            setText(e.currentTarget.value)
            setOpen(true)
          }}
          onFocus={() => {
            clearTimeout(closing.current)
            setOpen(true)
          }}
          // Closed a moment after leaving, so a tap on a result lands first; typing or coming back cancels it.
          onBlur={() => (closing.current = setTimeout(() => setOpen(false), 150))}
          onKeyDown={onKeyDown}
        />
        {status.kind === 'loading' && <Loader size="sm" aria-label="Đang tìm" />}
        {text && <CloseButton size="lg" aria-label="Xoá ô tìm kiếm" onClick={() => setText('')} />}
      </div>
      <div className="visually-hidden" role="status" aria-live="polite">
        {liveText}
      </div>
      {expanded && (
        <div className="qh-floating" style={{ marginTop: 6 }}>
          {!props.loggedIn && status.kind === 'idle' ? (
            <p className="qh-search-note">Tìm kiếm cần đăng nhập. Nhấn Enter để đăng nhập và tìm “{text.trim()}”.</p>
          ) : status.kind === 'error' ? (
            <p className="qh-search-note qh-error">{status.message}</p>
          ) : status.kind === 'done' && status.note ? (
            <p className="qh-search-note">{status.note}</p>
          ) : null}
          <ul
            id={listId}
            role="listbox"
            aria-label="Kết quả tìm kiếm"
            className="qh-search-list"
            hidden={options.length === 0}
          >
            {options.map((o, i) => (
              <li
                key={o.key}
                id={`${id}-opt-${i}`}
                role="option"
                aria-selected={i === active}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(o)}
                onMouseEnter={() => setActive(i)}
              >
                <div style={{ fontWeight: 600 }}>{o.label}</div>
                <div className="qh-option-detail">{o.detail}</div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
