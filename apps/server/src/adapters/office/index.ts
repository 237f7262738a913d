/** LibreOffice conversions of word-processor templates (docs/word-templates.md#conversion). */
export { libreOfficeInstalled, OfficeConverter, type OfficeConverterOptions } from './converter.ts';
export { importFilterFor, isWordSourceType, WORD_SOURCE_TYPES, type OfficeTarget, type WordSourceType } from './formats.ts';
export { networkNamespacePrefix, type NetworkIsolation } from './office-process.ts';
