import { useState, type ReactNode } from 'react'
import { useAtom, useSetAtom } from 'jotai'
import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconLogin2, IconLogout, IconUserPlus } from '@tabler/icons-react'
import { authDialogAtom, isSessionValid, sessionAtom } from '../atoms.ts'
import { AccountDetails } from './AccountDetails.tsx'
import { ChangePasswordForm } from './ChangePasswordForm.tsx'
import { LogoutDialog } from './LogoutDialog.tsx'

/**
 * "Tài khoản" in the navigation: who is signed in and signing out, or signing in and registering;
 * the display settings (colour scheme) the phone header has no room for.
 */
export function AccountPage({ settings }: { settings: ReactNode }) {
  const [session, setSession] = useAtom(sessionAtom)
  const setDialog = useSetAtom(authDialogAtom)
  const signedIn = isSessionValid(session)
  const [loggingOut, setLoggingOut] = useState(false)
  return (
    <Container size="sm" py="lg" w="100%">
      <Stack gap="md">
        <Title order={1}>Tài khoản</Title>
        <Paper withBorder p="md">
          {signedIn ? (
            <Stack gap="xs">
              <Text>
                Đã đăng nhập: <strong>{session.userName}</strong>
              </Text>
              <AccountDetails />
              <Group>
                <Button
                  variant="default"
                  leftSection={<IconLogout size={18} aria-hidden />}
                  onClick={() => setLoggingOut(true)}
                >
                  Đăng xuất
                </Button>
              </Group>
            </Stack>
          ) : (
            <Stack gap="xs">
              <Text>
                Đăng nhập để tra cứu quy hoạch và định giá; kết quả được lưu trên máy để xem lại khi không có mạng.
              </Text>
              <Group>
                <Button
                  leftSection={<IconLogin2 size={18} aria-hidden />}
                  onClick={() => setSession({ ...session, isOpenLogin: true })}
                >
                  Đăng nhập
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconUserPlus size={18} aria-hidden />}
                  onClick={() => setDialog('register')}
                >
                  Đăng ký
                </Button>
              </Group>
            </Stack>
          )}
        </Paper>
        {signedIn && (
          <Paper withBorder p="md">
            <ChangePasswordForm />
          </Paper>
        )}
        <Paper withBorder p="md">
          <Group justify="space-between">
            <Text>Giao diện sáng / tối</Text>
            {settings}
          </Group>
        </Paper>
        <LogoutDialog opened={loggingOut} onClose={() => setLoggingOut(false)} />
        <Text size="sm">
          <Link to="/offline">Khu vực đã lưu, ảnh chờ gửi và lịch sử tra cứu</Link>
        </Text>
      </Stack>
    </Container>
  )
}
