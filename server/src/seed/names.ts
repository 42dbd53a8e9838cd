/**
 * Names for the simulated ward: common Vietnamese street-name patterns (historical figures, places,
 * dates). The places are fictional; any likeness to a real street at these coordinates is chance.
 */
export const mainRoadNames = [
  'Đường Phan Đăng Lưu',
  'Đường Bạch Đằng',
  'Đường Điện Biên Phủ',
  'Đường Xô Viết Nghệ Tĩnh',
  'Đường Nơ Trang Long',
  'Đường Lê Quang Định',
  'Đường Hoàng Hoa Thám',
  'Đường Phạm Văn Đồng',
  'Đường Nguyễn Xí',
  'Đường Đinh Bộ Lĩnh',
  'Đường Ung Văn Khiêm',
  'Đường Trường Sa',
  'Đường Hoàng Sa',
  'Đường Nguyễn Hữu Cảnh',
  'Đường Lê Văn Sỹ',
  'Đường Cách Mạng Tháng Tám',
]

export const streetNames = [
  'Đường Nguyễn Văn Đậu',
  'Đường Bùi Đình Túy',
  'Đường Chu Văn An',
  'Đường Lê Trực',
  'Đường Nguyễn Thượng Hiền',
  'Đường Huỳnh Đình Hai',
  'Đường Vũ Tùng',
  'Đường Trần Quý Cáp',
  'Đường Lam Sơn',
  'Đường Hồ Xuân Hương',
  'Đường Võ Trường Toản',
  'Đường Nguyễn Công Trứ',
  'Đường Đống Đa',
  'Đường Bình Lợi',
  'Đường Tăng Bạt Hổ',
  'Đường Mê Linh',
  'Đường Nguyễn Huy Lượng',
  'Đường Trần Văn Kỷ',
  'Đường Nguyễn Lâm',
  'Đường Phan Chu Trinh',
  'Đường Nguyễn Trung Trực',
  'Đường Lê Văn Duyệt',
  'Đường Trịnh Hoài Đức',
  'Đường Phan Văn Hân',
  'Đường Nguyễn Văn Lạc',
  'Đường Đinh Tiên Hoàng',
  'Đường Vạn Kiếp',
  'Đường Yên Đỗ',
  'Đường Hoàng Diệu',
  'Đường Trần Bình Trọng',
  'Đường Ngô Tất Tố',
  'Đường Nguyễn An Ninh',
  'Đường Lý Văn Phức',
  'Đường Phó Đức Chính',
  'Đường Nguyễn Duy',
  'Đường Thích Quảng Đức',
  'Đường Hồ Văn Huê',
  'Đường Nguyễn Kiệm',
  'Đường Trần Kế Xương',
  'Đường Đặng Dung',
  'Đường Nguyễn Khuyến',
  'Đường Tô Hiến Thành',
  'Đường Cù Lao',
  'Đường Hoa Lan',
  'Đường Hoa Cúc',
  'Đường Hoa Sứ',
  'Đường Nguyễn Trọng Tuyển',
  'Đường Đào Duy Anh',
  'Đường Phan Xích Long',
  'Đường Trương Quốc Dung',
  'Đường Nguyễn Đình Chiểu',
  'Đường Lê Lai',
  'Đường Huỳnh Văn Bánh',
  'Đường Phạm Viết Chánh',
  'Đường Nguyễn Ngọc Phương',
  'Đường Đặng Thùy Trâm',
]

export const wardNames = [
  'Phường Gia An',
  'Phường Bình Hòa Đông',
  'Phường Thạnh Lộc Tây',
  'Phường An Phú Trung',
  'Phường Tân Định Bắc',
  'Phường Hòa Khánh Nam',
  'Phường Phước Long Tây',
  'Phường Bình Quới Đông',
  'Phường Thanh Đa Nam',
  'Phường Gia Hòa',
  'Phường Vĩnh Lợi',
  'Phường Mỹ Thạnh',
]

export const schoolNames = [
  'Trường THCS Lê Văn Tám',
  'Trường Tiểu học Hồng Hà',
  'Trường THCS Điện Biên',
  'Trường Tiểu học Bình Lợi',
  'Trường THPT Võ Thị Sáu',
  'Trường Mầm non Hoa Mai',
  'Trường Tiểu học Chu Văn An',
  'Trường THCS Hà Huy Tập',
]

export const parkNames = [
  'Công viên Gia Định',
  'Công viên Văn Thánh',
  'Công viên Bờ Kênh',
  'Công viên Tuổi Trẻ',
  'Công viên Hòa Bình',
]
export const marketNames = ['Chợ Bà Chiểu Mới', 'Chợ Thị Nghè Mới', 'Chợ Văn Thánh', 'Chợ Cây Thị', 'Chợ Gia Định']
export const canalNames = ['Kênh Nhiêu Lộc Mới', 'Rạch Văn Thánh', 'Kênh Cầu Bông', 'Rạch Cầu Sơn']

/** Beyond the named lists, HCMC's own habit for new grids: "Đường số N", "Phường mô phỏng N". */
export function nth(list: readonly string[], i: number, fallback: (n: number) => string): string {
  return list[i] ?? fallback(i - list.length + 1)
}
