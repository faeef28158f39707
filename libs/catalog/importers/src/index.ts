export * from './model';
export * from './limits';
export * from './import-file-error';
export type { ImportInput } from './reading/byte-chunks';
export * from './parse-import';
export { SOURCE_IDS, type SourceId } from './sources/source';
export { IMPORT_SOURCES, sourcesFor } from './sources/registry';
export * from './import-mappings';
export {
  EXPORT_FORMAT,
  type ExportEntry,
  type ExportItem,
  type ExportOptions,
  type ExportPlay,
} from './own-format/export-entry';
export { csvHeader } from './own-format/csv-columns';
export { jsonExport } from './export/json-export';
export { csvExport, csvPlaysExport, PLAYS_CSV_HEADER } from './export/csv-export';
