import { Button, Container, Group, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { ErrorPageInfo } from './route-errors.ts'

export function ErrorPage({ info, detail, onRetry }: { info: ErrorPageInfo; detail?: string; onRetry?: () => void }) {
  return (
    <Container size="sm" py="xl" data-testid="error-page" data-status={info.status}>
      <Stack gap="md">
        <Text c="dimmed" fw={700} size="xl">
          {info.status}
        </Text>
        <Title order={1}>{info.title}</Title>
        <Text size="lg" data-testid="error-message">
          {info.message}
        </Text>
        {detail && <Text>{detail}</Text>}
        <Group>
          <Button component={Link} to="/">
            Về trang chủ
          </Button>
          {onRetry && (
            <Button variant="default" onClick={onRetry}>
              Tải lại trang
            </Button>
          )}
        </Group>
      </Stack>
    </Container>
  )
}
