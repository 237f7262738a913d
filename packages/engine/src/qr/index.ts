export { QR_MAX_BYTES, fitsQrCode, qrCodeOperators, type QrBox, type QrErrorCorrection, type QrOptions } from './qrCodeOperators.ts';
