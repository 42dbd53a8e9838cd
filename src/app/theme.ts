import { createTheme, type MantineColorsTuple } from '@mantine/core'

// Tailwind's sky scale: the brand's primary colour.
const sky: MantineColorsTuple = [
  '#f0f9ff',
  '#e0f2fe',
  '#bae6fd',
  '#7dd3fc',
  '#38bdf8',
  '#0ea5e9',
  '#0284c7',
  '#0369a1',
  '#075985',
  '#0c4a6e',
]
// A true neutral grey (no blue cast) for text, borders and surfaces.
const gray: MantineColorsTuple = [
  '#fafafa',
  '#f5f5f5',
  '#e5e5e5',
  '#d4d4d4',
  '#a3a3a3',
  '#737373',
  '#525252',
  '#404040',
  '#262626',
  '#171717',
]

export const theme = createTheme({
  primaryColor: 'sky',
  // Shade 7 keeps white button text above 4.5:1 contrast, readable outdoors.
  primaryShade: { light: 7, dark: 8 },
  colors: { sky, gray },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif',
  },
  defaultRadius: 'md',
  focusRing: 'auto',
  cursorType: 'pointer',
})
