export { QR_MAX_BYTES, fitsQrCode, qrCodeOperators, qrModules, type QrBox, type QrErrorCorrection, type QrOptions } from './qrCodeOperators.ts';
