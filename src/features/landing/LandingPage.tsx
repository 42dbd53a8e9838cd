import { Badge, Button, Container, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { IconCalculator, IconCurrentLocation, IconMap2, IconRuler2, IconSearch, IconShare } from '@tabler/icons-react'
import type { TileJson } from '#core/contract/tiles.ts'
import { formatNumber } from '../../lib/format/format.ts'
import { vnDate } from '../../lib/tilejson.ts'
import { useTileJson } from '../../lib/use-tile-json.ts'

const features = [
  {
    icon: IconMap2,
    title: 'Tra cứu quy hoạch',
    text: 'Chạm vào thửa đất để xem số tờ, số thửa, diện tích, mục đích sử dụng, chỉ tiêu quy hoạch và phần diện tích vướng lộ giới.',
  },
  {
    icon: IconSearch,
    title: 'Tìm địa chỉ và tờ/thửa',
    text: 'Gõ tên đường không cần dấu, hoặc “tờ 12 thửa 345”, bản đồ bay tới và tra cứu ngay.',
  },
  {
    icon: IconCurrentLocation,
    title: 'GPS và toạ độ VN-2000',
    text: 'Vị trí của bạn với độ chính xác luôn hiện; toạ độ X, Y theo kinh tuyến trục của tỉnh; đi tới toạ độ VN-2000 hoặc độ-phút-giây.',
  },
  { icon: IconRuler2, title: 'Đo đạc', text: 'Đo chiều dài, diện tích (m², ha) ngay trên bản đồ, sửa được từng đỉnh.' },
  {
    icon: IconCalculator,
    title: 'Định giá đất',
    text: 'Giá theo bảng giá nhà nước và ước tính giá thị trường từ các giao dịch gần đó, có nguồn và ngày dữ liệu.',
  },
  {
    icon: IconShare,
    title: 'Chia sẻ và dùng khi mất sóng',
    text: 'Gửi liên kết mở đúng khung bản đồ và thửa đã chọn; ứng dụng cài được lên điện thoại, mở được cả khi không có mạng.',
  },
]

/** "khoảng 2,0 × 1,5 km" from a TileJSON's bounds. */
function extentText(tj: TileJson): string | null {
  const [w, s, e, n] = tj.bounds
  if (w <= -180 && e >= 180) return null
  const lat = ((s + n) / 2) * (Math.PI / 180)
  const km = (deg: number, perDeg: number) => formatNumber((deg * perDeg) / 1000, 1)
  return `khoảng ${km(e - w, 111_320 * Math.cos(lat))} × ${km(n - s, 110_600)} km quanh ${formatNumber((s + n) / 2, 4)}° B, ${formatNumber((w + e) / 2, 4)}° Đ`
}

function DataCoverage() {
  const { data, failed } = useTileJson('basemap')
  // Where the parcels are: the basemap spans the whole country with the national boundaries.
  const parcels = useTileJson('parcels').data
  if (failed) return <Text c="dimmed">Chưa đọc được thông tin vùng dữ liệu (máy chủ chưa trả lời).</Text>
  if (!data) return <Text c="dimmed">Đang đọc thông tin vùng dữ liệu…</Text>
  const extent = parcels ? extentText(parcels) : null
  const simulated = /mô phỏng/i.test(data.attribution)
  return (
    <Stack gap={6} data-testid="coverage">
      {simulated && (
        <Group gap={8}>
          <Badge color="var(--qh-badge-warning)" variant="filled" style={{ textTransform: 'none' }}>
            Dữ liệu mô phỏng
          </Badge>
          <Text size="sm">Bản đồ mẫu dùng dữ liệu giả lập để thử mọi chức năng; không dùng cho giao dịch thật.</Text>
        </Group>
      )}
      <Text>
        <b>Nguồn dữ liệu:</b> {data.attribution}
      </Text>
      {extent && (
        <Text>
          <b>Vùng có dữ liệu:</b> {extent}
        </Text>
      )}
      {data.data_date && (
        <Text>
          <b>Ngày dữ liệu mới nhất:</b> {vnDate(data.data_date)}
        </Text>
      )}
      {extent && parcels && (
        <Group mt={4}>
          <Button
            renderRoot={(props) => (
              <Link to="/demo" search={{ lat: parcels.center[1], lng: parcels.center[0], z: 15 }} {...props} />
            )}
            variant="light"
            leftSection={<IconMap2 size={20} aria-hidden />}
          >
            Xem vùng dữ liệu trên bản đồ
          </Button>
        </Group>
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
            Xem bản đồ quy hoạch, ranh thửa và giá đất ngay trên điện thoại — dành cho người đi khảo sát, môi giới và
            người mua đất. Toạ độ VN-2000, GPS, đo đạc và chia sẻ đều có sẵn.
          </Text>
          <Group mt="sm">
            <Button component={Link} to="/demo" size="lg" leftSection={<IconMap2 size={22} aria-hidden />}>
              Mở bản đồ
            </Button>
            <Button
              component={Link}
              to="/valuation"
              size="lg"
              variant="default"
              leftSection={<IconCalculator size={22} aria-hidden />}
            >
              Định giá đất
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            Xem bản đồ không cần tài khoản; tra cứu thửa đất cần đăng nhập và được tính vào số lượt mỗi ngày. Tìm kiếm
            và đo đạc không tính lượt.
          </Text>
        </Stack>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            Dữ liệu
          </Title>
          <DataCoverage />
        </Paper>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
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
        <Text size="sm" c="dimmed">
          Bản đồ thể hiện quần đảo Hoàng Sa và quần đảo Trường Sa thuộc chủ quyền Việt Nam.
        </Text>
      </Stack>
    </Container>
  )
}
