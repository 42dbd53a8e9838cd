import type { ReactNode } from 'react'
import { Button, Group } from '@mantine/core'
import { IconFileSpreadsheet, IconFileVector, IconMap2 } from '@tabler/icons-react'
import { download, fileName } from '../lib/download.ts'

export type ExportFormat = 'csv' | 'geojson' | 'dxf'

/** One file of an export row: its format and the text it holds, built only when the button is pressed. */
export type ExportFile = { format: ExportFormat; build: () => string }

const FORMATS = {
  csv: { label: 'CSV', type: 'text/csv;charset=utf-8', Icon: IconFileSpreadsheet },
  geojson: { label: 'GeoJSON', type: 'application/geo+json', Icon: IconMap2 },
  dxf: { label: 'DXF', type: 'application/dxf', Icon: IconFileVector },
} as const

/**
 * A row of "Tải CSV / GeoJSON / DXF" buttons, each handing one file to the browser as `<base>.<ext>`
 * (the base folded to a plain slug). `what` says what the files hold, so a screen reader hears
 * "Tải CSV kết quả cắm mốc" where the screen shows "Tải CSV"; `children` are the row's other actions.
 */
export function ExportButtons(props: {
  base: string
  files: readonly ExportFile[]
  what: string
  variant?: 'light' | 'default'
  className?: string
  mt?: string
  children?: ReactNode
}) {
  return (
    <Group gap="xs" className={props.className} mt={props.mt}>
      {props.files.map(({ format, build }) => {
        const { label, type, Icon } = FORMATS[format]
        return (
          <Button
            key={format}
            variant={props.variant ?? 'light'}
            leftSection={<Icon size={18} aria-hidden />}
            aria-label={`Tải ${label} ${props.what}`}
            onClick={() => download(fileName(props.base, format), build(), type)}
          >
            Tải {label}
          </Button>
        )
      })}
      {props.children}
    </Group>
  )
}
