import { lazy, Suspense } from 'react'
import { Loader } from '@mantine/core'
import type { Selection } from '../selection.ts'
import type { ServerData } from '../server-data.ts'
import { ResultPanel } from './ResultPanel.tsx'

// The result card loads after the map has painted.
const ResultCard = lazy(() => import('./ResultCard.tsx'))

/** The looked-up parcel: a bottom sheet on phones, a side panel on desktops. */
export function SelectionPanel(props: {
  selection: Selection
  desktop: boolean
  shareUrl: string
  onCover: (px: number) => void
  onClose: () => void
  onLookup: () => void
  server: ServerData | null
  onShowData: () => void
}) {
  return (
    <ResultPanel
      mode={props.desktop ? 'side' : 'sheet'}
      label="Kết quả tra cứu thửa đất"
      onCover={props.onCover}
      onClose={props.onClose}
    >
      <Suspense
        fallback={
          <div style={{ padding: 16 }}>
            <Loader size="sm" aria-label="Đang tải" />
          </div>
        }
      >
        <ResultCard
          selection={props.selection}
          shareUrl={props.shareUrl}
          onLookup={props.onLookup}
          server={props.server}
          onShowData={props.onShowData}
        />
      </Suspense>
    </ResultPanel>
  )
}
