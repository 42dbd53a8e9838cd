import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase } from '../db/index.ts'
import { DatabaseInUseError } from '../db/owner-lock.ts'
import { migrate } from '../db/migrate.ts'
import { DEMO } from '../seed/generate.ts'
import { loadDemo } from '../seed/load.ts'

// `npm run seed -- [--parcels N] [--reset] [--seed S]`: loads the simulated demo dataset.
const usage = 'Cách dùng: npm run seed -- [--parcels N] [--reset] [--seed S]\n'
let args: { parcels?: string; reset?: boolean; seed?: string; help?: boolean }
try {
  args = parseArgs({
    options: {
      parcels: { type: 'string' },
      reset: { type: 'boolean' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${usage}`)
  process.exit(2)
}
if (args.help) {
  process.stdout.write(usage)
  process.exit(0)
}
const parcels = Number(args.parcels ?? DEMO.defaultParcels)
const seed = Number(args.seed ?? DEMO.defaultSeed)
if (!Number.isInteger(parcels) || parcels < 1 || parcels > 50_000_000 || !Number.isInteger(seed)) {
  process.stderr.write(`--parcels phải là số nguyên từ 1 đến 50.000.000 và --seed là số nguyên.\n${usage}`)
  process.exit(2)
}

try {
  const config = loadConfig()
  const db = await openDatabase(config)
  try {
    await migrate(db)
    const result = await loadDemo(db, {
      parcels,
      seed,
      reset: args.reset,
      onTile: (done, total) => process.stderr.write(`\rĐang tạo dữ liệu mô phỏng: ${done}/${total} phường`),
    })
    process.stderr.write('\n')
    if (!result.loaded) {
      process.stdout.write('Đã có dữ liệu mô phỏng; dùng --reset để tạo lại.\n')
    } else {
      process.stdout.write(
        `Đã nạp ${result.parcels.toLocaleString('vi-VN')} thửa, ${result.streets.toLocaleString('vi-VN')} đoạn đường, ` +
          `${result.zones.toLocaleString('vi-VN')} ô quy hoạch, ${result.comparables.toLocaleString('vi-VN')} giao dịch trong ${(result.ms / 1000).toFixed(1)} s.\n`,
      )
    }
  } finally {
    await db.close()
  }
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`)
    process.exit(2)
  }
  if (err instanceof DatabaseInUseError) {
    process.stderr.write(`Không tạo được dữ liệu mô phỏng: ${err.message}\n`)
    process.exit(1)
  }
  throw err
}
