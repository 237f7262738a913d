export { crc32, crc32Combine } from './crc32.ts';
export { ZipWriter, type ZipFileOptions, type ZipSink } from './ZipWriter.ts';
