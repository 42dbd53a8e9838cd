import { ActionIcon, useMantineColorScheme } from '@mantine/core'
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react'
import { colorSchemeLabels, nextColorScheme } from './color-scheme.ts'

export function ColorModeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme()
  const Icon = colorScheme === 'auto' ? IconDeviceDesktop : colorScheme === 'dark' ? IconMoon : IconSun
  const label = `${colorSchemeLabels[colorScheme]} (bấm để đổi)`
  return (
    <ActionIcon
      variant="default"
      size="xl"
      aria-label={label}
      title={label}
      onClick={() => setColorScheme(nextColorScheme(colorScheme))}
    >
      <Icon size={22} stroke={1.8} aria-hidden />
    </ActionIcon>
  )
}
