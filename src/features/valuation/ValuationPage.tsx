import { useAtom } from 'jotai'
import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconLogin2, IconMap2 } from '@tabler/icons-react'
import { isSessionValid, sessionAtom } from '../auth/atoms.ts'

export function ValuationPage() {
  const [session, setSession] = useAtom(sessionAtom)
  const loggedIn = isSessionValid(session)
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>Định giá đất</Title>
        <Text>
          Ước tính giá một thửa đất từ vị trí, diện tích, mặt tiền, độ rộng hẻm và số tầng: giá theo bảng giá đất của tỉnh (vị trí VT1–VT4) và khoảng giá thị
          trường từ các giao dịch tương tự gần đó. Mỗi kết quả ghi rõ nguồn và ngày của dữ liệu.
        </Text>
        <Paper withBorder p="md">
          {loggedIn ? (
            <Stack gap="sm">
              <Text>Chọn thửa đất trên bản đồ để bắt đầu định giá. Mỗi lần định giá được tính là một lượt tra cứu.</Text>
              <Group>
                <Button component={Link} to="/demo" leftSection={<IconMap2 size={20} aria-hidden />}>
                  Chọn thửa trên bản đồ
                </Button>
              </Group>
            </Stack>
          ) : (
            <Stack gap="sm">
              <Text fw={600}>Cần đăng nhập để định giá.</Text>
              <Text size="sm">Tài khoản miễn phí, có số lượt tra cứu mỗi ngày.</Text>
              <Group>
                <Button leftSection={<IconLogin2 size={20} aria-hidden />} onClick={() => setSession({ ...session, isOpenLogin: true })}>
                  Đăng nhập
                </Button>
              </Group>
            </Stack>
          )}
        </Paper>
      </Stack>
    </Container>
  )
}
