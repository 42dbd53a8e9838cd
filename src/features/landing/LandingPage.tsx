import { Button, Container, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconCalculator, IconMap2, IconWifiOff } from '@tabler/icons-react'
import { useTileJson, vnDate } from '../map/tilejson.ts'

const features = [
  { icon: IconMap2, title: 'Tra cứu quy hoạch', text: 'Chạm vào thửa đất để xem số tờ, số thửa, mục đích sử dụng, chỉ tiêu quy hoạch và phần vướng lộ giới.' },
  { icon: IconCalculator, title: 'Định giá đất', text: 'Giá theo bảng giá nhà nước và ước tính giá thị trường từ các giao dịch gần đó, có nguồn và ngày dữ liệu.' },
  { icon: IconWifiOff, title: 'Dùng khi mất sóng', text: 'Ứng dụng cài được lên điện thoại; giao diện mở được cả khi không có mạng.' },
]

function DataCoverage() {
  const { data, failed } = useTileJson('basemap')
  if (failed) return <Text c="dimmed">Chưa đọc được thông tin vùng dữ liệu (máy chủ chưa trả lời).</Text>
  if (!data) return <Text c="dimmed">Đang đọc thông tin vùng dữ liệu…</Text>
  return (
    <Stack gap={4} data-testid="coverage">
      <Text>
        <b>Vùng có dữ liệu:</b> {data.attribution}
      </Text>
      {data.data_date && (
        <Text>
          <b>Ngày dữ liệu mới nhất:</b> {vnDate(data.data_date)}
        </Text>
      )}
    </Stack>
  )
}

export function LandingPage() {
  return (
    <Container size="md" py="xl">
      <Stack gap="xl">
        <Stack gap="sm">
          <Title order={1}>Tra cứu quy hoạch và định giá đất</Title>
          <Text size="lg">
            Xem bản đồ quy hoạch, ranh thửa và giá đất ngay trên điện thoại — dành cho người đi khảo sát, môi giới và người mua đất.
          </Text>
          <Group mt="sm">
            <Button component={Link} to="/demo" size="lg" leftSection={<IconMap2 size={22} aria-hidden />}>
              Mở bản đồ
            </Button>
            <Button component={Link} to="/valuation" size="lg" variant="default">
              Định giá đất
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            Xem bản đồ không cần tài khoản; tra cứu thửa đất cần đăng nhập và được tính vào số lượt mỗi ngày.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {features.map((f) => (
            <Paper key={f.title} withBorder p="md">
              <Stack gap="xs">
                <ThemeIcon size={44} variant="light" aria-hidden>
                  <f.icon size={26} />
                </ThemeIcon>
                <Title order={2} size="h4">
                  {f.title}
                </Title>
                <Text size="sm">{f.text}</Text>
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            Dữ liệu
          </Title>
          <DataCoverage />
        </Paper>
      </Stack>
    </Container>
  )
}
