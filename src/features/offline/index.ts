// Saved areas and the device's storage, for the map's offline parts.
export { areaCovering, areaLayers, listAreas, savedAreasAtom, tileUrl, type SavedArea } from './areas.ts'
export { formatAge, formatBytes } from './format.ts'
export { areaManager } from './service.ts'
export { fetchSizeSamples } from './size-samples.ts'
export { requestPersistence, storageInfo, type StorageInfo } from './storage.ts'
